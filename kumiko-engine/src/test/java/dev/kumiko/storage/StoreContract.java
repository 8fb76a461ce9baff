package dev.kumiko.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Store} must have. A backend's test extends this class and supplies
 * {@link #newStore()}; the transactions section is inherited from {@link StoreTransactionContract}; everything else here is backend-neutral, so a test that passes for one
 * store and fails for another points at a real difference, not at the test.
 */
public abstract class StoreContract extends StoreTransactionContract {
    /** Keys built from these bytes exercise the signed/unsigned boundary and prefix order. */
    static final byte[] EDGE_BYTES = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};

    /**
     * Closes the store and opens it again over the same data, for durability tests. Stores that
     * keep data for the process lifetime only return null and the durability test is skipped.
     */
    protected Store reopen(Store closing) {
        return null;
    }

    // ---- point operations -------------------------------------------------------------------

    @Test
    void getOfMissingKeyIsNull() {
        assertThat(store.get(b("absent"))).isNull();
    }

    @Test
    void putThenGetThenDelete() {
        put("k", "v1");
        assertThat(store.get(b("k"))).isEqualTo(b("v1"));
        put("k", "v2");
        assertThat(store.get(b("k"))).isEqualTo(b("v2"));
        store.apply(new WriteBatch().delete(b("k")));
        assertThat(store.get(b("k"))).isNull();
    }

    /** A store keeps its own bytes: neither the writer's array nor a reader's copy is shared with it. */
    @Test
    void valuesAreCopiedInAndOut() {
        byte[] written = b("first");
        store.apply(new WriteBatch().put(b("k"), written).put(b("twin"), written));
        written[0] = 'X';
        byte[] read = store.get(b("k"));
        read[1] = 'Y';
        assertThat(store.get(b("k"))).isEqualTo(b("first"));
        // Overwriting one key leaves another that was given the same array as it was.
        store.apply(new WriteBatch().put(b("k"), b("other")));
        assertThat(store.get(b("twin"))).isEqualTo(b("first"));
        try (Cursor cursor = store.scan(b("k"), b("l"), false)) {
            assertThat(cursor.next()).isTrue();
            cursor.value()[0] = 'Z';
        }
        assertThat(store.get(b("k"))).isEqualTo(b("other"));
    }

    /** Dozens of keys with one Arrays.hashCode: a store that hashes keys must still compare them. */
    @Test
    void keysWithOneHashCodeStayApart() {
        List<byte[]> keys = new ArrayList<>();
        for (int x = -3; x <= 3 && keys.size() < 40; x++) {
            for (int y = Byte.MIN_VALUE; y <= Byte.MAX_VALUE && keys.size() < 40; y++) {
                int z = -(961 * x + 31 * y); // Arrays.hashCode of {x, y, z} is 29791 for all of them
                if (z >= Byte.MIN_VALUE && z <= Byte.MAX_VALUE) {
                    keys.add(new byte[] {(byte) x, (byte) y, (byte) z});
                }
            }
        }
        assertThat(keys).hasSize(40);
        assertThat(keys.stream().mapToInt(Arrays::hashCode).distinct().count()).isEqualTo(1);
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < keys.size(); i++) {
            batch.put(keys.get(i), b("v" + i));
        }
        store.apply(batch);
        WriteBatch deletes = new WriteBatch();
        for (int i = 0; i < keys.size(); i += 2) {
            deletes.delete(keys.get(i));
        }
        store.apply(deletes);
        store.apply(new WriteBatch().put(keys.get(1), b("again")));
        for (int i = 0; i < keys.size(); i++) {
            byte[] expected = i % 2 == 0 ? null : i == 1 ? b("again") : b("v" + i);
            assertThat(store.get(keys.get(i))).as("key %d", i).isEqualTo(expected);
        }
    }

    @Test
    void emptyValueIsPresentNotNull() {
        // Index entries may carry no value; an empty value must not read as a missing key.
        store.apply(new WriteBatch().put(b("k"), new byte[0]));
        assertThat(store.get(b("k"))).isNotNull().isEmpty();
        assertThat(scanAll(b(""), b("z"), false)).containsOnlyKeys("k");
    }

    @Test
    void deleteOfMissingKeyIsANoOp() {
        store.apply(new WriteBatch().delete(b("absent")));
        assertThat(store.get(b("absent"))).isNull();
    }

    @Test
    void emptyBatchIsANoOp() {
        store.apply(new WriteBatch());
        assertThat(scanAll(b(""), b("z"), false)).isEmpty();
    }

    @Test
    void batchAppliesOpsInOrder() {
        store.apply(new WriteBatch()
                .put(b("a"), b("1"))
                .delete(b("a"))
                .put(b("b"), b("1"))
                .put(b("b"), b("2")));
        assertThat(store.get(b("a"))).isNull();
        assertThat(store.get(b("b"))).isEqualTo(b("2"));
    }

    @Test
    void batchIsAtomicAcrossKeys() {
        put("x", "old");
        store.apply(new WriteBatch().put(b("x"), b("new")).put(b("y"), b("new")).delete(b("w")));
        try (Snapshot snapshot = store.snapshot()) {
            assertThat(snapshot.get(b("x"))).isEqualTo(b("new"));
            assertThat(snapshot.get(b("y"))).isEqualTo(b("new"));
        }
    }

    // ---- order and scans ---------------------------------------------------------------------

    @Test
    void keysAreOrderedAsUnsignedBytesWithPrefixesFirst() {
        List<byte[]> expected = new ArrayList<>();
        for (byte first : EDGE_BYTES) {
            expected.add(new byte[] {first});
            for (byte second : EDGE_BYTES) {
                expected.add(new byte[] {first, second});
            }
        }
        // Insert in reverse so the store, not insertion order, produces the order.
        WriteBatch batch = new WriteBatch();
        for (int i = expected.size() - 1; i >= 0; i--) {
            batch.put(expected.get(i), expected.get(i));
        }
        store.apply(batch);

        assertThat(scanKeys(new byte[0], new byte[] {(byte) 0xFF, (byte) 0xFF, 0x00}, false))
                .containsExactlyElementsOf(expected);
        List<byte[]> reversed = new ArrayList<>(expected);
        java.util.Collections.reverse(reversed);
        assertThat(scanKeys(new byte[0], new byte[] {(byte) 0xFF, (byte) 0xFF, 0x00}, true))
                .containsExactlyElementsOf(reversed);
    }

    @Test
    void scanBoundsAreStartInclusiveEndExclusive() {
        for (String k : List.of("a", "b", "c", "d", "e")) {
            put(k, k);
        }
        assertThat(scanAll(b("b"), b("d"), false).keySet()).containsExactly("b", "c");
        assertThat(scanAll(b("b"), b("d"), true).keySet()).containsExactly("c", "b");
        // Bounds between keys.
        assertThat(scanAll(b("bb"), b("dd"), false).keySet()).containsExactly("c", "d");
        assertThat(scanAll(b("bb"), b("dd"), true).keySet()).containsExactly("d", "c");
        // Bounds outside every key.
        assertThat(scanAll(b(""), b("z"), true).keySet()).containsExactly("e", "d", "c", "b", "a");
    }

    @Test
    void emptyRangesYieldNothing() {
        put("a", "a");
        put("b", "b");
        for (boolean reverse : new boolean[] {false, true}) {
            assertThat(scanAll(b("a"), b("a"), reverse)).isEmpty();
            assertThat(scanAll(b("c"), b("d"), reverse)).isEmpty();
            assertThat(scanAll(b(""), b("a"), reverse)).isEmpty();
            assertThat(scanAll(b("a0"), b("b"), reverse)).isEmpty();
        }
    }

    @Test
    void startAfterEndIsACallerBug() {
        assertThatThrownBy(() -> store.scan(b("b"), b("a"), false).close())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.deleteRange(b("b"), b("a"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void prefixScanWithPrefixEnd() {
        byte[] prefix = {0x10, (byte) 0xFF};
        store.apply(new WriteBatch()
                .put(new byte[] {0x10, (byte) 0xFE, (byte) 0xFF}, b("before"))
                .put(prefix, b("p"))
                .put(new byte[] {0x10, (byte) 0xFF, (byte) 0xFF}, b("p-ff"))
                .put(new byte[] {0x11}, b("after")));
        assertThat(scanValues(prefix, Bytes.prefixEnd(prefix), false)).containsExactly("p", "p-ff");
        assertThat(scanValues(prefix, Bytes.prefixEnd(prefix), true)).containsExactly("p-ff", "p");
    }

    @Test
    void cursorSeesEveryKeyCommittedBeforeItOpened() {
        for (int i = 0; i < 100; i++) {
            put(String.format("k%03d", i), "v");
        }
        int seen = 0;
        try (Cursor cursor = store.scan(b("k"), b("l"), false)) {
            while (cursor.next()) {
                // Writes during the scan must not break it; whether it sees them is unspecified.
                if (seen == 10) {
                    put("k050x", "new");
                }
                seen++;
            }
        }
        assertThat(seen).isBetween(100, 101);
    }

    @Test
    void cursorReturnsValuesOfItsKeys() {
        put("a", "1");
        put("b", "2");
        assertThat(scanAll(b("a"), b("c"), false)).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
    }

    // ---- deleteRange -------------------------------------------------------------------------

    @Test
    void deleteRangeRemovesExactlyTheRange() {
        for (String k : List.of("a", "b", "ba", "bz", "c", "d")) {
            put(k, k);
        }
        store.deleteRange(b("b"), b("c"));
        assertThat(scanAll(b(""), b("z"), false).keySet()).containsExactly("a", "c", "d");
        assertThat(store.get(b("ba"))).isNull();
        store.deleteRange(b("c"), b("c"));
        assertThat(store.get(b("c"))).isEqualTo(b("c"));
    }

    @Test
    void writesAfterDeleteRangeAreVisible() {
        put("b1", "old");
        store.deleteRange(b("b"), b("c"));
        put("b1", "new");
        assertThat(store.get(b("b1"))).isEqualTo(b("new"));
        assertThat(scanValues(b("b"), b("c"), true)).containsExactly("new");
    }

    // ---- snapshots ---------------------------------------------------------------------------

    @Test
    void snapshotSeesCommittedData() {
        put("a", "1");
        put("b", "2");
        try (Snapshot snapshot = store.snapshot()) {
            assertThat(snapshot.get(b("a"))).isEqualTo(b("1"));
            assertThat(snapshot.get(b("missing"))).isNull();
            assertThat(keysOf(snapshot.scan(b(""), b("z"), true))).containsExactly("b", "a");
        }
    }

    @Test
    @Timeout(10)
    void snapshotDoesNotSeeLaterWrites() throws Exception {
        put("a", "old");
        put("b", "old");
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (Snapshot snapshot = store.snapshot()) {
            // The write runs on another thread: a store whose snapshot blocks writers (memory)
            // would deadlock if the snapshot's own thread wrote.
            Future<?> write = writer.submit(() -> store.apply(
                    new WriteBatch().put(b("a"), b("new")).delete(b("b")).put(b("c"), b("new"))));
            if (!snapshotsBlockWriters()) {
                write.get(5, TimeUnit.SECONDS);
                assertThat(store.get(b("a"))).isEqualTo(b("new"));
            }
            assertThat(snapshot.get(b("a"))).isEqualTo(b("old"));
            assertThat(snapshot.get(b("b"))).isEqualTo(b("old"));
            assertThat(snapshot.get(b("c"))).isNull();
            assertThat(keysOf(snapshot.scan(b(""), b("z"), false))).containsExactly("a", "b");
            assertThat(keysOf(snapshot.scan(b(""), b("z"), true))).containsExactly("b", "a");
        } finally {
            writer.shutdown();
            assertThat(writer.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(store.get(b("a"))).isEqualTo(b("new"));
        assertThat(store.get(b("b"))).isNull();
    }

    @Test
    void closingASnapshotTwiceIsHarmless() {
        Snapshot snapshot = store.snapshot();
        snapshot.close();
        snapshot.close();
        put("a", "1");
        assertThat(store.get(b("a"))).isEqualTo(b("1"));
    }

    // ---- concurrency -------------------------------------------------------------------------

    static final int WRITER_THREADS = 4;
    static final int BATCHES_PER_WRITER = 2_000;

    /** Writers race on a pair of keys; every snapshot must see the pair equal. */
    @Test
    @Timeout(30)
    void concurrentBatchesAreAtomicAndNoneIsLost() throws Exception {
        store.apply(new WriteBatch().put(b("pair/a"), b("init")).put(b("pair/b"), b("init")));
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(WRITER_THREADS + 1);
        try {
            CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> checkPairsWhile(writing), pool);
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < WRITER_THREADS; t++) {
                int thread = t;
                writers.add(pool.submit(() -> writePairs(thread)));
            }
            for (Future<?> w : writers) {
                w.get(25, TimeUnit.SECONDS);
            }
            writing.set(false);
            assertThat(reader.get(5, TimeUnit.SECONDS)).isPositive();
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }
        assertThat(store.get(b("pair/a"))).isEqualTo(store.get(b("pair/b")));
        assertThat(countKeys(b("log/"), b("log0"))).isEqualTo(WRITER_THREADS * rounds(BATCHES_PER_WRITER));
    }

    private void writePairs(int thread) {
        for (int i = 0; i < rounds(BATCHES_PER_WRITER); i++) {
            byte[] value = b(thread + ":" + i);
            store.apply(new WriteBatch()
                    .put(b("pair/a"), value)
                    .put(b(String.format("log/%d/%05d", thread, i)), value)
                    .put(b("pair/b"), value));
        }
    }

    /** Returns how many snapshots it checked, so the test knows the reader really ran. */
    private int checkPairsWhile(AtomicBoolean writing) {
        int checked = 0;
        while (writing.get() || checked == 0) {
            try (Snapshot snapshot = store.snapshot()) {
                assertThat(snapshot.get(b("pair/a"))).isEqualTo(snapshot.get(b("pair/b")));
            }
            checked++;
        }
        return checked;
    }

    static final int OVERWRITES = 20_000;
    static final int READER_THREADS = 2;

    /**
     * One key is overwritten over and over with values whose length and every byte follow from
     * one number, growing and shrinking, while readers get and scan it without a lock: every value
     * read must be one that was written whole.
     */
    @Test
    @Timeout(30)
    void readersNeverSeeHalfAnOverwrite() throws Exception {
        store.apply(new WriteBatch().put(b("v"), uniformValue(0)));
        readWhileWriting(
                (t, writing) -> checkWholeValuesWhile(writing, t % 2 == 1),
                i -> store.apply(new WriteBatch().put(b("v"), uniformValue(i))));
        assertThat(store.get(b("v"))).isEqualTo(uniformValue(rounds(OVERWRITES)));
    }

    /**
     * Runs {@link #READER_THREADS} readers (reader(t, writing): reader t's loop, which returns how
     * many reads it checked) while write(i) runs for i = 1 to rounds(OVERWRITES); each reader must
     * have checked at least one read, so that the test knows they really ran.
     */
    private void readWhileWriting(BiFunction<Integer, AtomicBoolean, Integer> reader, IntConsumer write)
            throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(READER_THREADS);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < READER_THREADS; t++) {
                int thread = t;
                readers.add(pool.submit(() -> reader.apply(thread, writing)));
            }
            for (int i = 1; i <= rounds(OVERWRITES); i++) {
                write.accept(i);
            }
            writing.set(false);
            for (Future<Integer> r : readers) {
                assertThat(r.get(5, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }
    }

    /**
     * Value number i: i in its first 4 bytes, then (i * 37) % 700 bytes more, so lengths jump both
     * ways, each i % 251.
     */
    private static byte[] uniformValue(int i) {
        byte[] value = new byte[Integer.BYTES + (i * 37) % 700];
        Arrays.fill(value, (byte) (i % 251));
        ByteBuffer.wrap(value).putInt(0, i);
        return value;
    }

    /** Returns how many reads it checked, so the test knows the reader really ran. */
    private int checkWholeValuesWhile(AtomicBoolean writing, boolean scanning) {
        int checked = 0;
        while (writing.get() || checked == 0) {
            byte[] value = scanning ? scanOne(b("v")) : store.get(b("v"));
            assertThat(value).isNotNull().hasSizeGreaterThanOrEqualTo(Integer.BYTES);
            int number = ByteBuffer.wrap(value).getInt(0);
            assertThat(value)
                    .as("value %d, read while it was being overwritten", number)
                    .isEqualTo(uniformValue(number));
            checked++;
        }
        return checked;
    }

    private byte[] scanOne(byte[] key) {
        try (Cursor cursor = store.scan(key, Bytes.prefixEnd(key), false)) {
            return cursor.next() ? cursor.value() : null;
        }
    }

    static final int SCANNED_KEYS = 16;

    /**
     * Keys whose values grow and shrink (so a store that keeps a key beside its value moves both to
     * a new buffer) are scanned without a lock meanwhile: every scan finds every key, in order, with
     * its own bytes and a value written whole for it.
     */
    @Test
    @Timeout(30)
    void scansFindEveryKeyWhileItsValueMoves() throws Exception {
        WriteBatch first = new WriteBatch();
        for (int k = 0; k < SCANNED_KEYS; k++) {
            first.put(scannedKey(k), keyedValue(k, 0));
        }
        store.apply(first);
        readWhileWriting((t, writing) -> checkWholeScansWhile(writing), i -> {
            int k = i % SCANNED_KEYS;
            store.apply(new WriteBatch().put(scannedKey(k), keyedValue(k, i)));
        });
    }

    private static byte[] scannedKey(int k) {
        return b(String.format("scan/%02d", k));
    }

    /** Key k's value number i: k and i, then bytes of k up to a length that jumps with i. */
    private static byte[] keyedValue(int k, int i) {
        byte[] value = new byte[2 * Integer.BYTES + (i * 53) % 900];
        Arrays.fill(value, (byte) k);
        ByteBuffer.wrap(value).putInt(0, k).putInt(Integer.BYTES, i);
        return value;
    }

    private int checkWholeScansWhile(AtomicBoolean writing) {
        int checked = 0;
        while (writing.get() || checked == 0) {
            try (Cursor cursor = store.scan(b("scan/"), b("scan0"), false)) {
                for (int k = 0; k < SCANNED_KEYS; k++) {
                    assertThat(cursor.next()).as("key %d of a scan", k).isTrue();
                    assertThat(cursor.key()).isEqualTo(scannedKey(k));
                    int number = ByteBuffer.wrap(cursor.value()).getInt(Integer.BYTES);
                    assertThat(cursor.value()).isEqualTo(keyedValue(k, number));
                }
                assertThat(cursor.next()).isFalse();
            }
            checked++;
        }
        return checked;
    }

    // ---- lifecycle and durability ------------------------------------------------------------

    @Test
    void closedStoreRefusesWork() {
        Store closing = store;
        store = null;
        closing.close();
        closing.close();
        assertThatThrownBy(() -> closing.get(b("a"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> closing.apply(new WriteBatch().put(b("a"), b("1"))))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void committedDataSurvivesReopen() {
        for (int i = 0; i < 1_000; i++) {
            put(String.format("k%04d", i), "v" + i);
        }
        store.deleteRange(b("k0100"), b("k0200"));
        store.sync();
        Store reopened = reopen(store);
        assumeTrue(reopened != null, "store is not durable");
        store = reopened;
        assertThat(countKeys(b("k"), b("l"))).isEqualTo(900);
        assertThat(store.get(b("k0999"))).isEqualTo(b("v999"));
        assertThat(store.get(b("k0150"))).isNull();
    }

    // ---- model check -------------------------------------------------------------------------

    static final long[] MODEL_SEEDS = {1, 2, 3, 42, 0x5EED};
    static final int MODEL_OPS_PER_SEED = 600;

    /** Random ops and scans against a TreeMap in Bytes.ORDER; fixed seeds keep it reproducible. */
    @Test
    void behavesLikeASortedMap() {
        for (long seed : MODEL_SEEDS) {
            new StoreModelCheck(store, seed).run(rounds(MODEL_OPS_PER_SEED));
            store.deleteRange(new byte[0], StoreModelCheck.KEY_SPACE_END);
            assertThat(countKeys(new byte[0], StoreModelCheck.KEY_SPACE_END)).isZero();
        }
    }

    // ---- helpers -----------------------------------------------------------------------------

    private void put(String key, String value) {
        store.apply(new WriteBatch().put(b(key), b(value)));
    }

    private Map<String, String> scanAll(byte[] start, byte[] end, boolean reverse) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        try (Cursor cursor = store.scan(start, end, reverse)) {
            while (cursor.next()) {
                out.put(new String(cursor.key(), UTF_8), new String(cursor.value(), UTF_8));
            }
        }
        return out;
    }

    private List<String> scanValues(byte[] start, byte[] end, boolean reverse) {
        return new ArrayList<>(scanAll(start, end, reverse).values());
    }

    private List<byte[]> scanKeys(byte[] start, byte[] end, boolean reverse) {
        List<byte[]> out = new ArrayList<>();
        try (Cursor cursor = store.scan(start, end, reverse)) {
            while (cursor.next()) {
                out.add(cursor.key().clone());
            }
        }
        return out;
    }

    private static List<String> keysOf(Cursor cursor) {
        List<String> out = new ArrayList<>();
        try (cursor) {
            while (cursor.next()) {
                out.add(new String(cursor.key(), UTF_8));
            }
        }
        return out;
    }

    private int countKeys(byte[] start, byte[] end) {
        int count = 0;
        try (Cursor cursor = store.scan(start, end, false)) {
            while (cursor.next()) {
                count++;
            }
        }
        return count;
    }
}
