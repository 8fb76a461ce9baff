package dev.kumiko.engine.capacity;

import dev.kumiko.engine.index.IndexChange;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.List;
import org.jspecify.annotations.Nullable;

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

    /** The ConsumedCapacity of units spent on the table alone, or null when not asked for. */
    public static @Nullable ConsumedCapacity report(
            @Nullable ReturnConsumedCapacity mode, String tableName, double units, boolean isRead) {
        return new CapacityTally(tableName, isRead).addTable(units).report(mode);
    }

    /**
     * The write units of one item write: the table's for the larger of the old and new item, and
     * each changed index's: an entry rewritten under the same key costs one write of its new size,
     * a moved entry a delete of the old plus a put of the new, an added or removed entry one write.
     */
    public static CapacityTally write(String tableName, long billedItemBytes, List<IndexChange> indexChanges) {
        CapacityTally tally = new CapacityTally(tableName, false).addTable(write(billedItemBytes));
        for (IndexChange c : indexChanges) {
            double units = c.sameKey()
                    ? write(c.newEntryBytes())
                    : (c.oldEntryBytes() > 0 ? write(c.oldEntryBytes()) : 0)
                            + (c.newEntryBytes() > 0 ? write(c.newEntryBytes()) : 0);
            tally.addIndex(c.index(), units);
        }
        return tally;
    }
}
