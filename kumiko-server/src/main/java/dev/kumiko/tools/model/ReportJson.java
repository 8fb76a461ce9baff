package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Report.DesignResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The report for machines ({@code --format json}); field names are documented in docs/modeling.md. */
final class ReportJson {
    private ReportJson() {}

    static String render(Report report) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("model", report.model().name());
        root.put("endpoint", report.endpoint());
        root.put("scale", report.scale());
        root.put("partitions", report.model().partitions());
        List<Object> designs = new ArrayList<>();
        for (DesignResult d : report.designs()) {
            designs.add(design(d));
        }
        root.put("designs", designs);
        root.put("prices", prices(report.prices()));
        root.put("violations", report.violations());
        root.put("foundNothing", report.missedData());
        root.put("ok", report.failures().isEmpty());
        return new String(Json.write(root, true), StandardCharsets.UTF_8) + "\n";
    }

    private static Map<String, Object> design(DesignResult d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.design().name());
        m.put("table", d.design().table().name());
        List<Object> patterns = new ArrayList<>();
        for (PatternResult p : d.patterns()) {
            patterns.add(pattern(p));
        }
        m.put("accessPatterns", patterns);
        Storage s = d.storage();
        m.put(
                "storage",
                Map.of(
                        "sampleItems",
                        s.sampleItems(),
                        "sampleBytes",
                        s.sampleBytes(),
                        "expectedItems",
                        s.expectedItems(),
                        "expectedBytes",
                        s.expectedBytes()));
        Cost c = d.cost();
        Map<String, Object> cost = new LinkedHashMap<>();
        cost.put("rcuPerSecond", c.rcuPerSecond());
        cost.put("wcuPerSecond", c.wcuPerSecond());
        cost.put("onDemandMonthly", c.onDemandMonthly());
        cost.put("onDemandReadMonthly", c.onDemandReadMonthly());
        cost.put("onDemandWriteMonthly", c.onDemandWriteMonthly());
        cost.put("provisionedRcu", c.provisionedRcu());
        cost.put("provisionedWcu", c.provisionedWcu());
        cost.put("provisionedMonthly", c.provisionedMonthly());
        cost.put("storageMonthly", c.storageMonthly());
        m.put("cost", cost);
        return m;
    }

    private static Map<String, Object> pattern(PatternResult p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", p.pattern().name());
        m.put("operation", Report.operations(p.pattern()));
        m.put("perSecond", p.pattern().perSecond());
        m.put("requests", p.requests());
        m.put("singleRequest", p.singleRequest());
        m.put("itemsRead", p.itemsRead());
        m.put("itemsReturned", p.itemsReturned());
        m.put("itemsWritten", p.itemsWritten());
        m.put("rcu", p.rcu());
        m.put("wcu", p.wcu());
        m.put("rcuPerHour", p.rcuPerHour());
        m.put("wcuPerHour", p.wcuPerHour());
        m.put("capacityByIndex", new LinkedHashMap<>(p.byIndex()));
        m.put("flags", p.flags());
        m.put("violations", p.violations());
        return m;
    }

    private static Map<String, Object> prices(Prices p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("readRequestUnitPerMillion", p.readRequestUnitPerMillion());
        m.put("writeRequestUnitPerMillion", p.writeRequestUnitPerMillion());
        m.put("rcuHour", p.rcuHour());
        m.put("wcuHour", p.wcuHour());
        m.put("storageGbMonth", p.storageGbMonth());
        m.put("provisionedUtilization", p.provisionedUtilization());
        return m;
    }
}
