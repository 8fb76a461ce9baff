package dev.kumiko.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread's forward range reads share one kept iterator (RocksStore's IteratorCache): each read
 * must still see exactly its own range, as of the store's latest state.
 */
class IteratorCacheTest {
    /** Past this, a settle the idle compaction has not done is not coming (it checks once a second). */
    static final long SETTLE_WAIT_MILLIS_MAX = 15_000;

    @TempDir
    Path dir;

    private RocksStore store;

    @BeforeEach
    void open() {
        store = RocksStore.open(dir.resolve("db"), RocksStoreTest.OPTIONS);
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void eachReadIsBoundedByItsOwnEnd() {
        putAll("a", "b", "c", "m", "n", "y", "z");
        assertThat(keys(store, "a", "c")).containsExactly("a", "b");
        assertThat(keys(store, "a", "z")).containsExactly("a", "b", "c", "m", "n", "y");
        assertThat(keys(store, "m", "n")).containsExactly("m");
        assertThat(keys(store, "b", "zz")).containsExactly("b", "c", "m", "n", "y", "z");
        assertThat(keys(store, "d", "l")).isEmpty();
        assertThat(store.iterators().keptCount()).isEqualTo(1);
    }

    /** Reverse reads set the lower bound to their start; a forward read after one sets it empty again. */
    @Test
    void reverseAndForwardReadsTakeTurnsOnOneIterator() {
        putAll("a", "b", "c", "m", "n", "y", "z");
        assertThat(keys(store, "b", "n", true)).containsExactly("m", "c", "b");
        assertThat(keys(store, "m", "zz", true)).containsExactly("z", "y", "n", "m");
        assertThat(keys(store, "a", "c")).containsExactly("a", "b");
        assertThat(keys(store, "a", "b", true)).containsExactly("a");
        assertThat(keys(store, "a", "zz")).containsExactly("a", "b", "c", "m", "n", "y", "z");
        assertThat(store.iterators().keptCount()).isEqualTo(1);
    }

    @Test
    void aKeptIteratorSeesWhatWasWrittenSinceItsLastRead() {
        putAll("a", "b", "c");
        assertThat(keys(store, "a", "d")).containsExactly("a", "b", "c");
        store.apply(new WriteBatch().put(bytes("ab"), bytes("v-ab")).delete(bytes("b")));
        assertThat(keys(store, "a", "d")).containsExactly("a", "ab", "c");
        store.deleteRange(bytes("a"), bytes("b"));
        assertThat(keys(store, "a", "d")).containsExactly("c");
    }

    /** A flush and compaction between two reads give the store a new set of files to refresh onto. */
    @Test
    @Tag("slow") // waits for a quiet interval of a second and the settle after it
    void aKeptIteratorFollowsTheStoreOntoNewFiles() throws InterruptedException {
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            written.add(String.format("k%05d", i));
        }
        putAll(written.toArray(String[]::new));
        assertThat(keys(store, "k", "l")).isEqualTo(written);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_WAIT_MILLIS_MAX);
        while (store.idleSettledCount() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            // Read on, so the timer never finds the iterator idle and it lives through the settle.
            assertThat(keys(store, "k00000", "k00002")).containsExactly("k00000", "k00001");
        }
        assertThat(store.idleSettledCount()).isPositive();
        store.apply(new WriteBatch().delete(bytes("k00000")).put(bytes("k99999"), bytes("v-k99999")));
        List<String> expected = new ArrayList<>(written.subList(1, written.size()));
        expected.add("k99999");
        assertThat(keys(store, "k", "l")).isEqualTo(expected);
        assertThat(store.iterators().keptCount()).isEqualTo(1);
    }

    @Test
    void aSecondCursorOnTheThreadReadsWithAnIteratorOfItsOwn() {
        putAll("a", "b", "m", "n");
        try (Cursor outer = store.scan(bytes("a"), bytes("z"), false);
                Cursor inner = store.scan(bytes("m"), bytes("n"), false)) {
            assertThat(outer.next()).isTrue();
            assertThat(key(outer)).isEqualTo("a");
            assertThat(inner.next()).isTrue();
            assertThat(key(inner)).isEqualTo("m");
            assertThat(inner.next()).isFalse();
            List<String> rest = new ArrayList<>();
            while (outer.next()) {
                rest.add(key(outer));
            }
            assertThat(rest).containsExactly("b", "m", "n");
        }
        assertThat(store.iterators().keptCount()).isEqualTo(1);
        assertThat(keys(store, "b", "n")).containsExactly("b", "m");
    }

    @Test
    void anEndTooLongForTheKeptBoundReadsWithAnIteratorOfItsOwn() {
        putAll("a", "b");
        byte[] longEnd = new byte[IteratorCache.BOUND_BYTES_MAX + 1];
        Arrays.fill(longEnd, (byte) 'b');
        assertThat(keys(store, bytes("a"), longEnd, false)).containsExactly("a", "b");
        assertThat(store.iterators().keptCount()).isZero();
    }

    @Test
    void everyThreadKeepsItsOwn() throws Exception {
        putAll("a", "b");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertThat(other.submit(() -> keys(store, "a", "c")).get()).containsExactly("a", "b");
        } finally {
            other.shutdown();
        }
        assertThat(keys(store, "b", "c")).containsExactly("b");
        assertThat(store.iterators().keptCount()).isEqualTo(2);
    }

    @Test
    void anIdleIteratorIsClosedAndTheNextReadMakesANewOne() {
        putAll("a", "b");
        assertThat(keys(store, "a", "c")).containsExactly("a", "b");
        Cursor lent = store.scan(bytes("a"), bytes("c"), false);
        long later = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10 * IteratorCache.IDLE_MILLIS_MAX);
        store.iterators().sweep(later);
        assertThat(store.iterators().keptCount())
                .as("a lent iterator is never swept")
                .isEqualTo(1);
        assertThat(lent.next()).isTrue();
        lent.close();

        store.iterators().sweep(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10 * IteratorCache.IDLE_MILLIS_MAX));
        assertThat(store.iterators().keptCount()).isZero();
        assertThat(keys(store, "b", "c")).containsExactly("b");
        assertThat(store.iterators().keptCount()).isEqualTo(1);
    }

    /**
     * A sweep that finds every free iterator idle, run over and over beside threads that read:
     * it may close an iterator between two reads of its thread, never during one.
     */
    @Test
    @Tag("slow") // two seconds of racing threads
    void sweepsRacingReadsNeverCloseALentIterator() throws Exception {
        String[] keys = new String[200];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("k%03d", i);
        }
        putAll(keys);
        long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try {
            List<java.util.concurrent.Future<Integer>> reads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int offset = t;
                reads.add(readers.submit(() -> {
                    int done = 0;
                    for (int i = offset; System.nanoTime() < endNanos; i++) {
                        int from = i % 150;
                        List<String> page = keys(store, keys[from], keys[from + 50], (i & 1) == 1);
                        assertThat(page).hasSize(50);
                        done++;
                    }
                    return done;
                }));
            }
            long sweeps = 0;
            while (System.nanoTime() < endNanos) {
                store.iterators().sweep(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
                sweeps++;
            }
            for (java.util.concurrent.Future<Integer> r : reads) {
                assertThat(r.get()).isPositive();
            }
            assertThat(sweeps).isPositive();
        } finally {
            readers.shutdown();
            assertThat(readers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A cursor left open on a lent iterator is freed by the store's close and then refuses use. */
    @Test
    void closeFreesALentIterator() {
        putAll("a", "b");
        Cursor cursor = store.scan(bytes("a"), bytes("c"), false);
        assertThat(cursor.next()).isTrue();
        Store closing = store;
        store = null;
        closing.close();
        assertThatThrownBy(cursor::next).isInstanceOf(IllegalStateException.class);
        cursor.close();
    }

    private void putAll(String... keys) {
        WriteBatch batch = new WriteBatch();
        for (String k : keys) {
            batch.put(bytes(k), bytes("v-" + k));
        }
        store.apply(batch);
    }

    private static List<String> keys(Store store, String start, String end) {
        return keys(store, bytes(start), bytes(end), false);
    }

    private static List<String> keys(Store store, String start, String end, boolean reverse) {
        return keys(store, bytes(start), bytes(end), reverse);
    }

    private static List<String> keys(Store store, byte[] start, byte[] end, boolean reverse) {
        List<String> keys = new ArrayList<>();
        try (Cursor c = store.scan(start, end, reverse)) {
            while (c.next()) {
                String k = key(c);
                assertThat(new String(c.value(), StandardCharsets.UTF_8)).isEqualTo("v-" + k);
                keys.add(k);
            }
        }
        return keys;
    }

    private static String key(Cursor c) {
        return new String(c.key(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
