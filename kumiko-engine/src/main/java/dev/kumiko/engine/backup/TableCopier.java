package dev.kumiko.engine.backup;

import dev.kumiko.codec.EncodedItemSize;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Copies a table's items, as one store snapshot sees them, into a copy range of the backup space,
 * in bounded batches, so a large table never makes one huge batch. Writers go on writing the live
 * table meanwhile. A store whose open snapshot holds writers off (the memory store) is read into
 * memory under the snapshot first, which is closed before anything is written.
 */
final class TableCopier {
    /** Items per storage batch of a copy or a restore. */
    static final int BATCH_ITEMS = 1_000;
    /** A long job logs its progress every this many items. */
    static final long LOG_EVERY_ITEMS = 100_000;

    /** What a copy holds. */
    record Counts(long items, long bytes) {}

    /** A table's items from one snapshot: a live cursor, or what was read from it. Closed by its opener. */
    static final class Source implements AutoCloseable {
        private final @Nullable Snapshot snapshot;
        private final @Nullable List<byte[][]> buffered;
        private final int tableId;

        private Source(@Nullable Snapshot snapshot, @Nullable List<byte[][]> buffered, int tableId) {
            this.snapshot = snapshot;
            this.buffered = buffered;
            this.tableId = tableId;
        }

        void forEach(java.util.function.BiConsumer<byte[], byte[]> visitor) {
            if (buffered != null) {
                buffered.forEach(kv -> visitor.accept(kv[0], kv[1]));
                return;
            }
            scan(Objects.requireNonNull(snapshot, "a source holds a snapshot or its items"), tableId, visitor);
        }

        @Override
        public void close() {
            if (snapshot != null) {
                snapshot.close();
            }
        }
    }

    private TableCopier() {}

    /** Opens table tableId's items as of now (the caller reads any other facts of the moment first). */
    static Source open(Store store, int tableId) {
        Snapshot snap = store.snapshot();
        if (!store.snapshotsHoldWriters()) {
            return new Source(snap, null, tableId);
        }
        try (snap) {
            List<byte[][]> items = new ArrayList<>();
            scan(snap, tableId, (k, v) -> items.add(new byte[][] {k, v}));
            return new Source(null, items, tableId);
        }
    }

    private static void scan(Snapshot snap, int tableId, java.util.function.BiConsumer<byte[], byte[]> visitor) {
        try (Cursor c = snap.scan(
                KeySpace.prefix(KeySpace.ITEMS, tableId), KeySpace.prefixEnd(KeySpace.ITEMS, tableId), false)) {
            while (c.next()) {
                visitor.accept(c.key(), c.value());
            }
        }
    }

    /**
     * Copies every item of source to copyId. pause runs before each batch (the pace of background
     * work; a test makes it long to catch a job half done).
     */
    static Counts copy(Store store, Source source, int copyId, String what, Runnable pause) {
        long[] counts = new long[2];
        WriteBatch[] batch = {new WriteBatch()};
        pause.run();
        source.forEach((key, value) -> {
            batch[0].put(BackupKeys.copyItem(copyId, key), value);
            counts[0]++;
            counts[1] += EncodedItemSize.of(value);
            if (batch[0].size() == BATCH_ITEMS) {
                store.apply(batch[0]);
                batch[0] = new WriteBatch();
                logProgress(what, counts[0]);
                pause.run();
            }
        });
        if (!batch[0].isEmpty()) {
            store.apply(batch[0]);
        }
        return new Counts(counts[0], counts[1]);
    }

    static void logProgress(String what, long items) {
        if (items % LOG_EVERY_ITEMS == 0) {
            System.getLogger(TableCopier.class.getName())
                    .log(System.Logger.Level.INFO, what + ": " + items + " items so far");
        }
    }
}
