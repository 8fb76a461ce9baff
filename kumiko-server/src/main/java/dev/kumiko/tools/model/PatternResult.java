package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.AccessPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One access pattern's measured cost, the warnings it raised and the budgets it broke. */
public record PatternResult(
        AccessPattern pattern,
        int requests,
        double rcu,
        double wcu,
        long itemsRead,
        long itemsReturned,
        long itemsWritten,
        Map<String, Double> byIndex,
        List<String> flags,
        List<String> violations) {
    /** A filter that returns less than this share of the items it read is flagged: the rest were paid for. */
    static final double FILTER_KEEP_RATIO_MIN = 0.5;

    public static final String FLAG_SCAN = "scan";
    public static final String FLAG_FILTER = "filter-discards-most";
    public static final String FLAG_ROUND_TRIPS = "several-round-trips";
    public static final String FLAG_EMPTY = "found-nothing";
    public static final String FLAG_TRUNCATED = "more-than-" + PatternRunner.PAGES_MAX + "-pages";

    /**
     * Whether the pattern's read found nothing without the model saying it may: its keys miss the data the
     * entities describe, so its measured cost is the cost of a miss, and a check that passed would prove
     * nothing about the design.
     */
    public boolean missedTheData() {
        return flags.contains(FLAG_EMPTY) && !pattern.mayFindNothing();
    }

    public boolean singleRequest() {
        return requests == 1;
    }

    /** Units per hour at the pattern's frequency, as seed-style capacity tables give them. */
    public double rcuPerHour() {
        return perHour(rcu);
    }

    public double wcuPerHour() {
        return perHour(wcu);
    }

    // A rate given per hour comes back through a per-second double; rounding to a millionth of a unit
    // drops the binary noise (21,500.000000000004) without hiding any real fraction of a unit.
    private double perHour(double units) {
        return Math.round(units * pattern.perSecond() * 3600 * 1e6) / 1e6;
    }

    static PatternResult of(AccessPattern p, Measurement m) {
        List<String> flags = new ArrayList<>();
        if (m.usedScan) {
            flags.add(FLAG_SCAN);
        }
        if (m.usedFilter && m.itemsReturned < m.itemsRead * FILTER_KEEP_RATIO_MIN) {
            flags.add(FLAG_FILTER);
        }
        if (m.requests > 1) {
            flags.add(FLAG_ROUND_TRIPS);
        }
        if (m.hadReads && m.itemsReturned == 0) {
            flags.add(FLAG_EMPTY);
        }
        if (m.truncated) {
            flags.add(FLAG_TRUNCATED);
        }
        List<String> violations = new ArrayList<>();
        if (p.maxRcu() != null && m.rcu > p.maxRcu()) {
            violations.add("RCU " + Report.number(m.rcu) + " > maxRcu " + Report.number(p.maxRcu()));
        }
        if (p.maxWcu() != null && m.wcu > p.maxWcu()) {
            violations.add("WCU " + Report.number(m.wcu) + " > maxWcu " + Report.number(p.maxWcu()));
        }
        if (p.maxItemsRead() != null && m.itemsRead > p.maxItemsRead()) {
            violations.add("items read " + m.itemsRead + " > maxItemsRead " + p.maxItemsRead());
        }
        if (p.maxRequests() != null && m.requests > p.maxRequests()) {
            violations.add("requests " + m.requests + " > maxRequests " + p.maxRequests());
        }
        return new PatternResult(
                p,
                m.requests,
                m.rcu,
                m.wcu,
                m.itemsRead,
                m.itemsReturned,
                m.itemsWritten,
                Map.copyOf(m.byIndex),
                List.copyOf(flags),
                List.copyOf(violations));
    }
}
