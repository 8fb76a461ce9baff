package dev.kumiko.catalog;

/**
 * Provisioned read and write capacity units (zero for on-demand tables) and their change history
 * as DescribeTable reports it: when they last went up, when they last went down, and how many
 * decreases fell on the UTC day of the last one. Times are epoch milliseconds, 0 for never.
 */
public record Throughput(
        long readCapacityUnits,
        long writeCapacityUnits,
        long lastIncreaseEpochMillis,
        long lastDecreaseEpochMillis,
        int decreasesOnLastDecreaseDay) {
    public static final Throughput ZERO = new Throughput(0, 0);

    private static final long DAY_MILLIS = 86_400_000L;

    public Throughput(long readCapacityUnits, long writeCapacityUnits) {
        this(readCapacityUnits, writeCapacityUnits, 0, 0, 0);
    }

    /**
     * These units changed to read/write at nowMillis. Either unit going up counts as an increase,
     * either going down as a decrease (one call may be both), as DynamoDB stamps each direction.
     */
    public Throughput changedTo(long read, long write, long nowMillis) {
        boolean up = read > readCapacityUnits || write > writeCapacityUnits;
        boolean down = read < readCapacityUnits || write < writeCapacityUnits;
        int decreases = !down
                ? decreasesOnLastDecreaseDay
                : sameDay(lastDecreaseEpochMillis, nowMillis) ? decreasesOnLastDecreaseDay + 1 : 1;
        return new Throughput(
                read,
                write,
                up ? nowMillis : lastIncreaseEpochMillis,
                down ? nowMillis : lastDecreaseEpochMillis,
                decreases);
    }

    /** NumberOfDecreasesToday: the decreases of the current UTC day, as DynamoDB resets them at midnight. */
    public int decreasesToday(long nowMillis) {
        return lastDecreaseEpochMillis != 0 && sameDay(lastDecreaseEpochMillis, nowMillis)
                ? decreasesOnLastDecreaseDay
                : 0;
    }

    /** These units as reported at nowMillis: a decrease count from an earlier day reads 0. */
    public Throughput asOf(long nowMillis) {
        int today = decreasesToday(nowMillis);
        return today == decreasesOnLastDecreaseDay
                ? this
                : new Throughput(
                        readCapacityUnits, writeCapacityUnits, lastIncreaseEpochMillis, lastDecreaseEpochMillis, today);
    }

    private static boolean sameDay(long aMillis, long bMillis) {
        return Math.floorDiv(aMillis, DAY_MILLIS) == Math.floorDiv(bMillis, DAY_MILLIS);
    }
}
