package dev.kumiko.tools.model;

import java.util.List;

/**
 * Monthly cost of a design's measured patterns at their frequencies. A month is 730 hours, AWS's own
 * convention in its pricing examples. On-demand bills every request unit; provisioned capacity is the
 * average units per second of all patterns together divided by the target utilization, rounded up to
 * whole units and billed every hour.
 */
public record Cost(
        double rcuPerSecond,
        double wcuPerSecond,
        double onDemandReadMonthly,
        double onDemandWriteMonthly,
        long provisionedRcu,
        long provisionedWcu,
        double provisionedReadMonthly,
        double provisionedWriteMonthly,
        double storageMonthly) {
    static final double HOURS_PER_MONTH = 730;
    private static final double SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
    private static final double MILLION = 1_000_000;

    public double onDemandMonthly() {
        return onDemandReadMonthly + onDemandWriteMonthly + storageMonthly;
    }

    public double provisionedMonthly() {
        return provisionedReadMonthly + provisionedWriteMonthly + storageMonthly;
    }

    static Cost of(List<PatternResult> patterns, double storageBytes, Prices prices) {
        double rcuPerSecond = 0;
        double wcuPerSecond = 0;
        for (PatternResult p : patterns) {
            rcuPerSecond += p.rcu() * p.pattern().perSecond();
            wcuPerSecond += p.wcu() * p.pattern().perSecond();
        }
        long rcu = (long) Math.ceil(rcuPerSecond / prices.provisionedUtilization());
        long wcu = (long) Math.ceil(wcuPerSecond / prices.provisionedUtilization());
        double storage = storageBytes / (1024.0 * 1024 * 1024) * prices.storageGbMonth();
        return new Cost(
                rcuPerSecond,
                wcuPerSecond,
                rcuPerSecond * SECONDS_PER_MONTH / MILLION * prices.readRequestUnitPerMillion(),
                wcuPerSecond * SECONDS_PER_MONTH / MILLION * prices.writeRequestUnitPerMillion(),
                rcu,
                wcu,
                rcu * HOURS_PER_MONTH * prices.rcuHour(),
                wcu * HOURS_PER_MONTH * prices.wcuHour(),
                storage);
    }
}
