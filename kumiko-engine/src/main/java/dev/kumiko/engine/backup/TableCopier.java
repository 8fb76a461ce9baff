package dev.kumiko.engine.backup;

import dev.kumiko.codec.EncodedItemSize;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;

/**
 * Copies a table's items, as a store snapshot sees them, into a copy range of the backup space, in
 * bounded batches, so a large table never makes one huge batch and writers are never blocked (they
 * write to the live table; the snapshot does not move).
 */
final class TableCopier {
    /** Items per storage batch of a copy or a restore. */
    static final int BATCH_ITEMS = 1_000;
    /** A long job logs its progress every this many items. */
    static final long LOG_EVERY_ITEMS = 100_000;

    /** What a copy holds. */
    record Counts(long items, long bytes) {}

    private TableCopier() {}

    /**
     * Copies every item of table tableId in snap to copyId. pause runs before each batch (the pace
     * of background work; a test makes it long to catch a job half done).
     */
    static Counts copy(Store store, Snapshot snap, int tableId, int copyId, String what, Runnable pause) {
        long items = 0;
        long bytes = 0;
        WriteBatch batch = new WriteBatch();
        pause.run();
        try (Cursor c = snap.scan(KeySpace.prefix(KeySpace.ITEMS, tableId), KeySpace.prefixEnd(KeySpace.ITEMS, tableId),
                false)) {
            while (c.next()) {
                batch.put(BackupKeys.copyItem(copyId, c.key()), c.value());
                items++;
                bytes += EncodedItemSize.of(c.value());
                if (batch.size() == BATCH_ITEMS) {
                    store.apply(batch);
                    batch = new WriteBatch();
                    logProgress(what, items);
                    pause.run();
                }
            }
        }
        if (!batch.isEmpty()) {
            store.apply(batch);
        }
        return new Counts(items, bytes);
    }

    static void logProgress(String what, long items) {
        if (items % LOG_EVERY_ITEMS == 0) {
            System.getLogger(TableCopier.class.getName()).log(System.Logger.Level.INFO,
                    what + ": " + items + " items so far");
        }
    }
}
