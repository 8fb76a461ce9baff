package dev.kumiko.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreContract;
import dev.kumiko.storage.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("slow")
class RocksStoreTest extends StoreContract {
    static final RocksStoreOptions OPTIONS = RocksStoreCrashTest.OPTIONS;

    @TempDir
    Path dir;

    @Override
    protected Store newStore() {
        return RocksStore.open(dir.resolve("db"), OPTIONS);
    }

    @Override
    protected Store reopen(Store closing) {
        closing.close();
        return newStore();
    }

    @Test
    void cursorOutlivesItsSnapshot() {
        store.apply(new WriteBatch().put(b("a"), b("1")).put(b("b"), b("2")));
        Snapshot snapshot = store.snapshot();
        Cursor cursor = snapshot.scan(b("a"), b("c"), false);
        snapshot.close();
        store.apply(new WriteBatch().delete(b("b")));
        List<String> keys = new ArrayList<>();
        while (cursor.next()) {
            keys.add(new String(cursor.key()));
        }
        cursor.close();
        assertThat(keys).containsExactly("a", "b");
        assertThatThrownBy(() -> snapshot.get(b("a"))).isInstanceOf(IllegalStateException.class);
    }

    /** Leaked cursors and snapshots are freed by close and then throw, never touch freed memory. */
    @Test
    void closeReleasesLeftOpenCursorsAndSnapshots() {
        store.apply(new WriteBatch().put(b("a"), b("1")));
        Cursor cursor = store.scan(b("a"), b("z"), true);
        assertThat(cursor.next()).isTrue();
        Snapshot snapshot = store.snapshot();
        Cursor snapshotCursor = snapshot.scan(b("a"), b("z"), false);
        Store closing = store;
        store = null;
        closing.close();
        assertThatThrownBy(cursor::next).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(cursor::key).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(snapshotCursor::next).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> snapshot.get(b("a"))).isInstanceOf(IllegalStateException.class);
        cursor.close();
        snapshotCursor.close();
        snapshot.close();
    }

    /** A bound on each racing caller, should a close never take effect. */
    private static final long RACING_CALLS_MAX = 10_000_000;

    /**
     * Calls racing a close either finish or are refused with an IllegalStateException: none may run
     * on freed native memory, which would crash the JVM (and fail the build) rather than throw.
     */
    @Test
    void callsRacingACloseFinishOrAreRefused() throws Exception {
        int threads = 3;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 20; round++) {
                Store racing = RocksStore.open(dir.resolve("race" + round), OPTIONS);
                racing.apply(new WriteBatch().put(b("a"), b("1")).put(b("b"), b("2")));
                CountDownLatch running = new CountDownLatch(threads);
                List<Future<Long>> callers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int kind = t;
                    callers.add(pool.submit(() -> callUntilRefused(racing, kind, running)));
                }
                running.await();
                Thread.sleep(round % 3);
                racing.close();
                for (Future<Long> caller : callers) {
                    assertThat(caller.get(30, TimeUnit.SECONDS)).isPositive();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Reads, writes or scans until the store refuses (or, if a close never took, RACING_CALLS_MAX
     * calls later: -1); returns how many calls finished first.
     */
    private static long callUntilRefused(Store store, int kind, CountDownLatch running) {
        long done = 0;
        try {
            while (done < RACING_CALLS_MAX) {
                switch (kind) {
                    case 0 -> store.get(b("k" + done)); // absent and never read before: a RocksDB read
                    case 1 -> store.apply(new WriteBatch().put(b("w" + done % 50), b("v")));
                    default -> {
                        try (Cursor cursor = store.scan(b("a"), b("z"), false)) {
                            while (cursor.next()) {
                                cursor.key();
                                cursor.value();
                            }
                        }
                    }
                }
                if (++done == 1) {
                    running.countDown();
                }
            }
            return -1; // never refused: the close did not take
        } catch (IllegalStateException refused) {
            if (done == 0) {
                running.countDown();
            }
            return done;
        }
    }

    /**
     * The model check only ever reads the memtable; this reads across table files (reopen
     * flushes the recovered WAL), newer memtable entries and range tombstones in both directions.
     */
    @Test
    void scansMergeTableFilesMemtableAndRangeTombstones() {
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.ORDER);
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 1_000; i++) {
            batch.put(key(i), b("old" + i));
            model.put(key(i), b("old" + i));
        }
        store.apply(batch);
        store = reopen(store);
        for (int i = 0; i < 1_000; i += 3) {
            store.apply(new WriteBatch().delete(key(i)));
            model.remove(key(i));
        }
        for (int i = 1; i < 1_000; i += 7) {
            store.apply(new WriteBatch().put(key(i), b("new" + i)));
            model.put(key(i), b("new" + i));
        }
        store.deleteRange(key(400), key(600));
        model.subMap(key(400), key(600)).clear();

        for (boolean reverse : new boolean[] {false, true}) {
            assertThat(scan(key(0), key(1_000), reverse)).isEqualTo(expected(model, reverse));
        }
    }

    private List<String> scan(byte[] start, byte[] end, boolean reverse) {
        List<String> out = new ArrayList<>();
        try (Cursor cursor = store.scan(start, end, reverse)) {
            while (cursor.next()) {
                out.add(new String(cursor.key()) + "=" + new String(cursor.value()));
            }
        }
        return out;
    }

    private static List<String> expected(TreeMap<byte[], byte[]> model, boolean reverse) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : (reverse ? model.descendingMap() : model).entrySet()) {
            out.add(new String(e.getKey()) + "=" + new String(e.getValue()));
        }
        return out;
    }

    private static byte[] key(int i) {
        return b(String.format("k%05d", i));
    }
}
