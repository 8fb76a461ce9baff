package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Report.DesignResult;
import java.util.List;

/** The report for people: plain text for a terminal, or Markdown for a pull request. */
final class ReportText {
    private final Report report;
    private final boolean markdown;
    private final StringBuilder out = new StringBuilder();

    private ReportText(Report report, boolean markdown) {
        this.report = report;
        this.markdown = markdown;
    }

    static String render(Report report, boolean markdown) {
        return new ReportText(report, markdown).render();
    }

    private String render() {
        Model m = report.model();
        heading(1, "Model check: " + m.name());
        para("Endpoint: " + report.endpoint() + "; sample data: " + m.partitions() + " partitions per entity, "
                + report.scale() + " items per collection (--scale).");
        for (DesignResult d : report.designs()) {
            design(d);
        }
        if (sharedPatterns()) {
            comparison();
        }
        budgets();
        Prices p = report.prices();
        para("Prices (USD): on-demand " + Report.number(p.readRequestUnitPerMillion())
                + " per million read request units, " + Report.number(p.writeRequestUnitPerMillion())
                + " per million write request units; provisioned " + plain(p.rcuHour()) + " per RCU-hour and "
                + plain(p.wcuHour()) + " per WCU-hour, sized for " + Math.round(p.provisionedUtilization() * 100)
                + " % utilization; storage " + Report.number(p.storageGbMonth()) + " per GB-month; 730 hours a month.");
        return out.toString();
    }

    private void design(DesignResult d) {
        String title = report.designs().size() > 1 ? "Design: " + d.design().name() : "Access patterns";
        heading(2, title + " (table " + d.design().table().name() + ")");
        if (d.design().description() != null && report.designs().size() > 1) {
            para(d.design().description());
        }
        TableText t = new TableText(
                        "pattern",
                        "operation",
                        "per s",
                        "requests",
                        "single",
                        "items read",
                        "returned",
                        "RCU",
                        "WCU",
                        "RCU/h",
                        "WCU/h",
                        "flags")
                .right(2, 3, 5, 6, 7, 8, 9, 10);
        for (PatternResult p : d.patterns()) {
            t.row(
                    p.pattern().name(),
                    Report.operations(p.pattern()),
                    Report.number(p.pattern().perSecond()),
                    Integer.toString(p.requests()),
                    p.singleRequest() ? "yes" : "no",
                    Long.toString(p.itemsRead()),
                    Long.toString(p.itemsReturned()),
                    Report.number(p.rcu()),
                    Report.number(p.wcu()),
                    Report.grouped(p.rcuPerHour()),
                    Report.grouped(p.wcuPerHour()),
                    p.flags().isEmpty() && p.violations().isEmpty() ? "" : flags(p));
        }
        block(t);
        Storage s = d.storage();
        Cost c = d.cost();
        String storage =
                "Storage: " + s.sampleItems() + " sample items, " + Report.bytes((double) s.sampleBytes()) + " billed";
        if (s.expectedItems() != s.sampleItems()) {
            storage += "; expected " + String.format("%,d", s.expectedItems()) + " items, "
                    + Report.bytes(s.expectedBytes());
        }
        para(storage + ".");
        TableText cost = new TableText("monthly cost", "reads", "writes", "storage", "total").right(1, 2, 3, 4);
        cost.row(
                "on-demand",
                Report.dollars(c.onDemandReadMonthly()),
                Report.dollars(c.onDemandWriteMonthly()),
                Report.dollars(c.storageMonthly()),
                Report.dollars(c.onDemandMonthly()));
        cost.row(
                "provisioned (" + c.provisionedRcu() + " RCU, " + c.provisionedWcu() + " WCU)",
                Report.dollars(c.provisionedReadMonthly()),
                Report.dollars(c.provisionedWriteMonthly()),
                Report.dollars(c.storageMonthly()),
                Report.dollars(c.provisionedMonthly()));
        block(cost);
    }

    private static String plain(double d) {
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    private static String flags(PatternResult p) {
        List<String> all = new java.util.ArrayList<>(p.flags());
        if (!p.violations().isEmpty()) {
            all.add("OVER BUDGET");
        }
        if (p.missedTheData()) {
            all.add("FAILED");
        }
        return String.join(", ", all);
    }

    /** Whether two designs have a pattern of the same name, which is what a comparison lines up. */
    private boolean sharedPatterns() {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (DesignResult d : report.designs()) {
            for (PatternResult p : d.patterns()) {
                if (!seen.add(p.pattern().name())) {
                    return true;
                }
            }
        }
        return false;
    }

    private void comparison() {
        List<DesignResult> designs = report.designs();
        heading(2, "Comparison by access pattern");
        String[] header = new String[1 + designs.size() * 3];
        header[0] = "pattern";
        for (int i = 0; i < designs.size(); i++) {
            String n = designs.get(i).design().name();
            header[1 + i * 3] = n + " requests";
            header[2 + i * 3] = n + " RCU/h";
            header[3 + i * 3] = n + " WCU/h";
        }
        TableText t = new TableText(header);
        for (int c = 1; c < header.length; c++) {
            t.right(c);
        }
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (DesignResult d : designs) {
            d.patterns().forEach(p -> names.add(p.pattern().name()));
        }
        for (String name : names) {
            String[] row = new String[header.length];
            row[0] = name;
            for (int i = 0; i < designs.size(); i++) {
                PatternResult p = designs.get(i).pattern(name);
                row[1 + i * 3] = p == null ? "-" : Integer.toString(p.requests());
                row[2 + i * 3] = p == null ? "-" : Report.grouped(p.rcuPerHour());
                row[3 + i * 3] = p == null ? "-" : Report.grouped(p.wcuPerHour());
            }
            t.row(row);
        }
        block(t);
        TableText totals = new TableText("design", "on-demand / month", "provisioned / month").right(1, 2);
        for (DesignResult d : designs) {
            totals.row(
                    d.design().name(),
                    Report.dollars(d.cost().onDemandMonthly()),
                    Report.dollars(d.cost().provisionedMonthly()));
        }
        block(totals);
    }

    private void budgets() {
        List<String> violations = report.violations();
        if (violations.isEmpty()) {
            para("Budgets: every pattern is within its budget.");
        } else {
            list("Budgets exceeded", violations);
        }
        List<String> missed = report.missedData();
        if (!missed.isEmpty()) {
            list("Patterns that found nothing", missed);
        }
    }

    private void list(String title, List<String> lines) {
        heading(2, title);
        for (String v : lines) {
            out.append(markdown ? "- " : "  ").append(v).append('\n');
        }
        out.append('\n');
    }

    private void heading(int level, String text) {
        if (markdown) {
            out.append("#".repeat(level)).append(' ').append(text).append("\n\n");
        } else {
            out.append(text)
                    .append('\n')
                    .append((level == 1 ? "=" : "-").repeat(text.length()))
                    .append("\n\n");
        }
    }

    private void para(String text) {
        out.append(text).append("\n\n");
    }

    private void block(TableText t) {
        out.append(t.render(markdown)).append('\n');
    }
}
