package dev.kumiko.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point cache answers like RocksDB itself: never with a value older than the last write that
 * returned, after counter additions and range deletes too, and with nothing stale left behind
 * once writers of one key race each other.
 */
@Tag("slow")
class PointCacheTest {
    /** The smallest cache: 8,192 slots, so that the stress tests' keys share slots and stripes. */
    static final RocksStoreOptions SMALL_CACHE =
            RocksStoreCrashTest.OPTIONS.withPointCacheSizeBytes(RocksStoreOptions.SIZE_BYTES_MIN);

    static final int KEYS = 20_000;
    static final int WRITERS = 3;
    static final int READERS = 3;
    static final long STRESS_MILLIS = 3_000;

    @TempDir
    Path dir;

    @Test
    void counterAdditionIsNotAnsweredFromAHeldValue() {
        try (RocksStore store = RocksStore.open(dir, SMALL_CACHE)) {
            byte[] key = bytes("counter");
            assertThat(store.get(key)).isNull(); // now held as absent
            store.apply(new WriteBatch().add(key, 5));
            assertThat(Counters.decode(store.get(key))).isEqualTo(5);
            store.apply(new WriteBatch().add(key, 3));
            assertThat(Counters.decode(store.get(key))).isEqualTo(8);
        }
    }

    @Test
    void rangeDeleteDropsHeldValues() {
        try (RocksStore store = RocksStore.open(dir, SMALL_CACHE)) {
            store.apply(new WriteBatch().put(bytes("a1"), bytes("x")).put(bytes("b1"), bytes("y")));
            assertThat(store.getAll(new byte[][] {bytes("a1"), bytes("b1")}))
                    .isDeepEqualTo(new byte[][] {bytes("x"), bytes("y")});
            store.deleteRange(bytes("a"), bytes("b"));
            assertThat(store.get(bytes("a1"))).isNull();
            assertThat(store.get(bytes("b1"))).isEqualTo(bytes("y"));
        }
    }

    @Test
    void valueLargerThanTheCacheHoldsIsReadFromTheStore() {
        try (RocksStore store = RocksStore.open(dir, SMALL_CACHE)) {
            byte[] big = new byte[PointCache.VALUE_BYTES_MAX + 1];
            big[big.length - 1] = 7;
            store.apply(new WriteBatch().put(bytes("big"), big));
            assertThat(store.get(bytes("big"))).isEqualTo(big);
            big[0] = 1;
            store.apply(new WriteBatch().put(bytes("big"), big));
            assertThat(store.get(bytes("big"))).isEqualTo(big);
        }
    }

    @Test
    void closedStoreRefusesAHeldKeyToo() {
        RocksStore store = RocksStore.open(dir, SMALL_CACHE);
        store.apply(new WriteBatch().put(bytes("k"), bytes("v")));
        assertThat(store.get(bytes("k"))).isEqualTo(bytes("v"));
        store.close();
        assertThatThrownBy(() -> store.get(bytes("k"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.getAll(new byte[][] {bytes("k")})).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void heldBytesStayWithinTheBudget() {
        long budget = 64L << 10;
        PointCache cache = new PointCache(budget, PointCache.SLOTS_MIN * 16);
        for (int i = 0; i < 10_000; i++) {
            byte[] key = bytes("key" + i);
            long mark = cache.beforeWrite(key);
            cache.afterWrite(key, mark, new byte[100], true, true);
            Object found = cache.lookup(key);
            if (found instanceof PointCache.Fill miss) {
                cache.fill(miss, new byte[100 + i % 50]);
                cache.done(miss);
            }
        }
        assertThat(cache.heldBytes()).isPositive().isLessThanOrEqualTo(budget);
    }

    /**
     * Writers own disjoint keys (as the engine's key locks make them) and publish each version
     * once its write returned; readers, by get and getAll, must never see an older one, nor one
     * older than a scan (which reads RocksDB, not the cache) saw just before: a write in flight
     * must not leave the old value answering after the new one is visible. Range
     * deletes and counter additions on other keys share the slots meanwhile. At rest every key
     * reads as a snapshot (which never uses the cache) reads it.
     */
    @Test
    void noReadIsOlderThanAReturnedWrite() throws Exception {
        try (RocksStore store = RocksStore.open(dir, SMALL_CACHE)) {
            AtomicLongArray returned = new AtomicLongArray(KEYS);
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int owner = w;
                threads.add(new Thread(() -> write(store, owner, returned, stop)));
            }
            for (int r = 0; r < READERS; r++) {
                long seed = r;
                threads.add(new Thread(() -> read(store, seed, returned, stop, failures)));
            }
            threads.add(new Thread(() -> disturb(store, stop)));
            run(threads, stop);
            assertThat(failures).isEmpty();
            assertAtRestLikeASnapshot(store);
            for (int k = 0; k < KEYS; k += 97) {
                assertThat(version(store.get(itemKey(k)))).isEqualTo(returned.get(k));
            }
        }
    }

    /** Writers racing on the same keys without locks: whichever landed last, nothing stale stays held. */
    @Test
    void unlockedWritersOfOneKeyLeaveNothingStale() throws Exception {
        try (RocksStore store = RocksStore.open(dir, SMALL_CACHE)) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS + READERS; w++) {
                long seed = w;
                threads.add(new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    long v = 0;
                    while (!stop.get()) {
                        int k = random.nextInt(64);
                        if (random.nextInt(4) == 0) {
                            store.get(itemKey(k));
                        } else if (random.nextInt(8) == 0) {
                            store.apply(new WriteBatch().delete(itemKey(k)));
                        } else {
                            store.apply(new WriteBatch().put(itemKey(k), value(++v)));
                        }
                    }
                }));
            }
            run(threads, stop);
            assertAtRestLikeASnapshot(store);
        }
    }

    private static void write(RocksStore store, int owner, AtomicLongArray returned, AtomicBoolean stop) {
        SplittableRandom random = new SplittableRandom(owner + 100);
        while (!stop.get()) {
            WriteBatch batch = new WriteBatch();
            int[] keys = new int[1 + random.nextInt(4)];
            int first = random.nextInt(KEYS / WRITERS - keys.length);
            for (int i = 0; i < keys.length; i++) {
                keys[i] = (first + i) * WRITERS + owner; // distinct, so each gets one new version
                batch.put(itemKey(keys[i]), value(returned.get(keys[i]) + 1));
            }
            store.apply(batch);
            for (int k : keys) {
                returned.incrementAndGet(k);
            }
        }
    }

    private static void read(
            RocksStore store,
            long seed,
            AtomicLongArray returned,
            AtomicBoolean stop,
            ConcurrentLinkedQueue<String> failures) {
        SplittableRandom random = new SplittableRandom(seed);
        while (!stop.get() && failures.isEmpty()) {
            int a = random.nextInt(KEYS);
            int b = random.nextInt(KEYS);
            // A scan never uses the cache: what it saw has landed, and a later read must see it too.
            long floorA = Math.max(returned.get(a), scannedVersion(store, a));
            long floorB = Math.max(returned.get(b), scannedVersion(store, b));
            byte[][] got = random.nextBoolean()
                    ? new byte[][] {store.get(itemKey(a)), store.get(itemKey(b))}
                    : store.getAll(new byte[][] {itemKey(a), itemKey(b)});
            check(failures, a, floorA, got[0]);
            check(failures, b, floorB, got[1]);
        }
    }

    private static long scannedVersion(RocksStore store, int k) {
        byte[] key = itemKey(k);
        Cursor cursor = store.scan(key, Arrays.copyOf(key, key.length + 1), false);
        try {
            return cursor.next() ? version(cursor.value()) : 0;
        } finally {
            cursor.close();
        }
    }

    private static void check(ConcurrentLinkedQueue<String> failures, int key, long floor, byte[] got) {
        long seen = version(got);
        if (seen < floor) {
            failures.add("key " + key + ": read version " + seen + " after version " + floor + " returned");
        }
    }

    /** Range deletes and counter additions on keys outside the items, hashing into the same slots. */
    private static void disturb(RocksStore store, AtomicBoolean stop) {
        SplittableRandom random = new SplittableRandom(42);
        while (!stop.get()) {
            int k = random.nextInt(KEYS);
            store.get(otherKey(k));
            if (random.nextBoolean()) {
                store.apply(new WriteBatch().put(otherKey(k), value(k)));
                store.get(otherKey(k));
                store.deleteRange(otherKey(k), otherKey(k + 1));
            } else {
                store.apply(new WriteBatch().add(otherKey(k), 1));
            }
        }
    }

    private static void run(List<Thread> threads, AtomicBoolean stop) throws InterruptedException {
        threads.forEach(Thread::start);
        Thread.sleep(STRESS_MILLIS);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void assertAtRestLikeASnapshot(RocksStore store) {
        try (Snapshot snapshot = store.snapshot()) {
            for (int k = 0; k < KEYS; k++) {
                assertThat(store.get(itemKey(k))).as("key %d", k).isEqualTo(snapshot.get(itemKey(k)));
            }
        }
    }

    private static byte[] itemKey(int k) {
        return bytes("i" + k);
    }

    private static byte[] otherKey(int k) {
        return bytes(String.format("o%06d", k));
    }

    private static byte[] value(long version) {
        return ByteBuffer.allocate(Long.BYTES).putLong(version).array();
    }

    /** A key never written reads as version 0. */
    private static long version(byte[] value) {
        return value == null ? 0 : ByteBuffer.wrap(value).getLong();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
