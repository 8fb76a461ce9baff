package dev.kumiko.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When writes pause, RocksStore flushes its memtable and, below a size, compacts into one level. */
@Tag("slow") // waits for quiet intervals of a second
class IdleCompactionTest {
    /** Several quiet intervals: a settle that has not happened by then is not coming. */
    static final long WAIT_MILLIS_MAX = 15_000;

    static final int KEYS = 2_000;
    static final int VALUE_BYTES = 1_000;

    @TempDir
    Path dir;

    private final Random random = new Random(42);

    /** Overwrites spread over memtable and level-0 files end in the bottom level alone, unchanged. */
    @Test
    void aQuietStoreIsFlushedAndCompactedIntoOneLevel() {
        RocksStoreOptions options =
                RocksStoreOptions.defaults().withWriteBufferSizeBytes(1L << 20).withBlockCacheSizeBytes(8L << 20);
        try (RocksStore store = RocksStore.open(dir.resolve("db"), options)) {
            TreeMap<byte[], byte[]> model = writeRounds(store, 3);
            assertThat(store.longProperty("rocksdb.num-entries-active-mem-table") + store.levelZeroFiles())
                    .isPositive();

            // The count rises after the settle's work returns, so the wait includes it: a look
            // between the compaction's end and the count would see the tree settled, the count not.
            awaitTrue(() -> store.idleSettledCount() > 0
                    && store.longProperty("rocksdb.num-entries-active-mem-table") == 0
                    && store.levelZeroFiles() == 0);

            assertThat(contents(store)).isEqualTo(asStrings(model));
        }
    }

    /** Above the bound only the memtable is flushed: level 0 keeps its files for RocksDB to shape. */
    @Test
    void aStoreAboveTheBoundIsFlushedNotCompacted() {
        RocksStoreOptions options = RocksStoreOptions.defaults()
                .withWriteBufferSizeBytes(4L << 20)
                .withBlockCacheSizeBytes(8L << 20)
                .withIdleCompactionBytesMax(1L << 20);
        try (RocksStore store = RocksStore.open(dir.resolve("db"), options)) {
            // About 2 MB of incompressible values: one or two level-0 files, below RocksDB's own
            // trigger of four, and more than the 1 MiB bound.
            TreeMap<byte[], byte[]> model = writeRounds(store, 1);

            awaitTrue(() ->
                    store.longProperty("rocksdb.num-entries-active-mem-table") == 0 && store.idleSettledCount() > 0);

            assertThat(store.levelZeroFiles()).isPositive();
            assertThat(contents(store)).isEqualTo(asStrings(model));
        }
    }

    /**
     * A few writes after a settle (a background task's lease) are left in the memtable: settling
     * after each would rewrite the whole tree for one key.
     */
    @Test
    void aTrickleOfWritesAfterASettleIsLeftAlone() throws InterruptedException {
        RocksStoreOptions options =
                RocksStoreOptions.defaults().withWriteBufferSizeBytes(1L << 20).withBlockCacheSizeBytes(8L << 20);
        try (RocksStore store = RocksStore.open(dir.resolve("db"), options)) {
            writeRounds(store, 1);
            awaitTrue(() -> store.idleSettledCount() > 0 && store.levelZeroFiles() == 0);
            long settled = store.idleSettledCount();

            int trickle = 10;
            assertThat(trickle).isLessThan((int) IdleCompaction.SETTLE_WRITES_MIN);
            for (int i = 0; i < trickle; i++) {
                store.apply(new WriteBatch().put(key(i), new byte[] {(byte) i}));
            }
            Thread.sleep(3 * IdleCompaction.CHECK_INTERVAL_MILLIS);

            assertThat(store.idleSettledCount()).isEqualTo(settled);
            assertThat(store.longProperty("rocksdb.num-entries-active-mem-table"))
                    .isEqualTo(trickle);
        }
    }

    @Test
    void offLeavesTheMemtableAsWritesLeftIt() throws InterruptedException {
        RocksStoreOptions options =
                RocksStoreOptions.defaults().withBlockCacheSizeBytes(8L << 20).withIdleCompactionBytesMax(0);
        try (RocksStore store = RocksStore.open(dir.resolve("db"), options)) {
            writeRounds(store, 1);
            Thread.sleep(3 * IdleCompaction.CHECK_INTERVAL_MILLIS);

            assertThat(store.idleSettledCount()).isEqualTo(-1);
            assertThat(store.longProperty("rocksdb.num-entries-active-mem-table"))
                    .isEqualTo(KEYS);
        }
    }

    /** Close stops the checks' thread (cancelling a compaction it runs), and the data reopens whole. */
    @Test
    void closeStopsTheChecksAndKeepsTheData() throws InterruptedException {
        RocksStoreOptions options =
                RocksStoreOptions.defaults().withWriteBufferSizeBytes(1L << 20).withBlockCacheSizeBytes(8L << 20);
        Path db = dir.resolve("db");
        TreeMap<byte[], byte[]> model;
        try (RocksStore store = RocksStore.open(db, options)) {
            model = writeRounds(store, 3);
            // Close inside the second quiet interval, when the first settle has begun or is due.
            Thread.sleep(IdleCompaction.CHECK_INTERVAL_MILLIS * 2 + 50);
        }
        assertThat(idleThreadsAlive()).isZero();
        try (RocksStore store = RocksStore.open(db, options)) {
            assertThat(contents(store)).isEqualTo(asStrings(model));
        }
    }

    /** Rounds of overwrites of the same keys with random (incompressible) values, in batches. */
    private TreeMap<byte[], byte[]> writeRounds(RocksStore store, int rounds) {
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.ORDER);
        for (int round = 0; round < rounds; round++) {
            for (int first = 0; first < KEYS; first += 100) {
                WriteBatch batch = new WriteBatch();
                for (int i = first; i < first + 100; i++) {
                    byte[] value = new byte[VALUE_BYTES];
                    random.nextBytes(value);
                    batch.put(key(i), value);
                    model.put(key(i), value);
                }
                store.apply(batch);
            }
        }
        return model;
    }

    private static TreeMap<String, String> contents(RocksStore store) {
        TreeMap<String, String> out = new TreeMap<>();
        try (Cursor cursor = store.scan(key(0), key(KEYS), false)) {
            while (cursor.next()) {
                out.put(
                        new String(cursor.key(), StandardCharsets.UTF_8),
                        java.util.HexFormat.of().formatHex(cursor.value()));
            }
        }
        return out;
    }

    private static TreeMap<String, String> asStrings(TreeMap<byte[], byte[]> model) {
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            out.put(
                    new String(e.getKey(), StandardCharsets.UTF_8),
                    java.util.HexFormat.of().formatHex(e.getValue()));
        }
        return out;
    }

    private static long idleThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("kumiko-rocksdb-idle") && t.isAlive())
                .count();
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS_MAX;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not settled within " + WAIT_MILLIS_MAX + " ms");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
    }
}
