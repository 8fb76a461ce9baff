package dev.kumiko.engine.capacity;

/**
 * DynamoDB's billing arithmetic: a read unit covers 4 KB (half for eventually consistent reads),
 * a write unit covers 1 KB, each rounded up per item.
 */
public final class CapacityUnits {
    public static final int READ_UNIT_BYTES = 4096;
    public static final int WRITE_UNIT_BYTES = 1024;

    private CapacityUnits() {}

    public static double read(long itemBytes, boolean consistent) {
        long units = Math.max(1, ceilDiv(itemBytes, READ_UNIT_BYTES));
        return consistent ? units : units / 2.0;
    }

    public static double write(long itemBytes) {
        return Math.max(1, ceilDiv(itemBytes, WRITE_UNIT_BYTES));
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /** The ConsumedCapacity to report, or null when the client did not ask (NONE or absent). */
    public static ConsumedCapacity report(String mode, String tableName, double units, boolean isRead) {
        if (mode == null || "NONE".equals(mode)) {
            return null;
        }
        boolean indexes = "INDEXES".equals(mode);
        return new ConsumedCapacity(tableName, units, isRead ? units : null, isRead ? null : units, indexes);
    }
}
