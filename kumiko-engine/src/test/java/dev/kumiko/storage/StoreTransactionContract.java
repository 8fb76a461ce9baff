package dev.kumiko.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transactions section of the store contract: read-modify-write cycles under concurrency, in
 * terms any store can meet (key locks or optimistic validation). A conflict may surface when a
 * transaction begins, reads or commits; the tests accept each and retry as the engine does.
 */
public abstract class StoreTransactionContract {
    /** Threads racing on one key, and the increments each makes. */
    static final int RACERS = 8;

    static final int INCREMENTS_PER_RACER = 200;
    /** Rounds of the write-skew race. */
    static final int SKEW_ROUNDS = 200;

    static final long WAIT_SECONDS_MAX = 60;

    protected Store store;

    /**
     * How many times fewer rounds the load-bound tests run (the lost-update race, write skew, the
     * counter race, the batch race, the model check): 1 for a store in this process. A replicated
     * store whose every commit waits for a majority's fsync makes a few hundred commits a second on
     * a small machine, so it runs the same races with the same assertions, shorter.
     */
    protected int roundsDivisor() {
        return 1;
    }

    /** n rounds of a load-bound test, divided by {@link #roundsDivisor} (at least 1). */
    protected final int rounds(int n) {
        return Math.max(1, n / roundsDivisor());
    }

    /** A new, empty store. Called once per test. */
    protected abstract Store newStore();

    /**
     * Whether an open snapshot blocks writers (the memory store does this instead of keeping
     * versions). The isolation test then cannot wait for a concurrent write while it holds one.
     */
    protected boolean snapshotsBlockWriters() {
        return false;
    }

    @BeforeEach
    void openStore() {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    // ---- transactions ------------------------------------------------------------------------

    /** N threads each add 1 to one counter, conditionally on what they read: no update is lost. */
    @Test
    @Timeout(120)
    void conditionalIncrementsFromManyThreadsLoseNoUpdate() throws Exception {
        byte[] key = b("counter");
        store.apply(new WriteBatch().put(key, longBytes(0)));
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            List<Future<?>> racers = new ArrayList<>();
            for (int r = 0; r < RACERS; r++) {
                racers.add(pool.submit(() -> {
                    for (int i = 0; i < rounds(INCREMENTS_PER_RACER); i++) {
                        increment(key);
                    }
                }));
            }
            for (Future<?> f : racers) {
                f.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(asLong(store.get(key))).isEqualTo((long) RACERS * rounds(INCREMENTS_PER_RACER));
    }

    private void increment(byte[] key) {
        while (true) {
            try (Transaction txn = store.begin(key)) {
                long seen = asLong(txn.get(key));
                txn.commit(new WriteBatch().put(key, longBytes(seen + 1)));
                return;
            } catch (StoreConflictException e) {
                assertThat(e.retryable())
                        .as("a plain writer meets only retryable conflicts")
                        .isTrue();
            }
        }
    }

    /**
     * Two doctors on call: each transaction reads both flags and takes itself off only if the other
     * is on. Each writes one key and only reads the other, the shape of write skew; at least one
     * must stay on call in every round.
     */
    @Test
    @Timeout(120)
    void writeSkewIsPrevented() throws Exception {
        byte[] alice = b("alice");
        byte[] bob = b("bob");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < rounds(SKEW_ROUNDS); round++) {
                store.apply(new WriteBatch().put(alice, longBytes(1)).put(bob, longBytes(1)));
                CyclicBarrier start = new CyclicBarrier(2);
                Future<?> a = pool.submit(() -> goOffCall(start, alice, bob));
                Future<?> c = pool.submit(() -> goOffCall(start, bob, alice));
                a.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
                c.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
                assertThat(asLong(store.get(alice)) + asLong(store.get(bob)))
                        .as("on call in round " + round)
                        .isGreaterThanOrEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private Void goOffCall(CyclicBarrier start, byte[] me, byte[] other) throws Exception {
        start.await(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
        while (true) {
            try (Transaction txn = store.begin(me)) {
                long mine = asLong(txn.get(me));
                long theirs = asLong(txn.get(other));
                if (mine + theirs >= 2) {
                    txn.commit(new WriteBatch().put(me, longBytes(0)));
                }
                return null;
            } catch (StoreConflictException e) {
                assertThat(e.retryable()).isTrue();
                // Both may have given up at once; a random pause keeps them from doing it again.
                Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextInt(1, 5));
            }
        }
    }

    /**
     * While a claiming transaction holds its keys, a second one touching any of them conflicts (at
     * begin, read or commit) and writes nothing, not even its other keys; a plain writer of a held
     * key conflicts too. The first then commits.
     */
    @Test
    void conflictingTransactionAbortsWithNothingWritten() {
        byte[][] first = {b("a"), b("b")};
        try (Transaction holder = store.begin(first, TransactionMode.CLAIM)) {
            holder.getAll(first);
            assertThat(attempt(new byte[][] {b("c"), b("b")}, TransactionMode.CLAIM))
                    .as("second transaction")
                    .isInstanceOf(StoreConflictException.class);
            assertThat(attempt(new byte[][] {b("b")}, TransactionMode.WAIT))
                    .as("plain writer of a held key")
                    .isInstanceOf(StoreConflictException.class);
            holder.commit(new WriteBatch().put(b("a"), b("A")).put(b("b"), b("B")));
        }
        assertThat(store.getAll(new byte[][] {b("a"), b("b"), b("c")}))
                .isDeepEqualTo(new byte[][] {b("A"), b("B"), null});
    }

    /** Runs a transaction that writes "x" to all keys; returns its conflict or null if it committed. */
    private StoreConflictException attempt(byte[][] keys, TransactionMode mode) {
        try (Transaction txn = store.begin(keys, mode)) {
            txn.getAll(keys);
            WriteBatch batch = new WriteBatch();
            for (byte[] k : keys) {
                batch.put(k, b("x"));
            }
            txn.commit(batch);
            return null;
        } catch (StoreConflictException e) {
            assertThat(e.claimed()).as("the conflict names a claim").isTrue();
            return e;
        }
    }

    @Test
    void keyIndexesOfAClaimConflictPointAtTheHeldKeys() {
        try (Transaction holder = store.begin(new byte[][] {b("held")}, TransactionMode.CLAIM)) {
            assertThatThrownBy(() -> store.begin(new byte[][] {b("free"), b("held")}, TransactionMode.CLAIM)
                            .close())
                    .isInstanceOfSatisfying(
                            StoreConflictException.class,
                            e -> assertThat(e.keyIndexes()).containsAnyOf(1).doesNotContain(0));
        }
        try (Transaction again = store.begin(new byte[][] {b("free"), b("held")}, TransactionMode.CLAIM)) {
            again.commit(new WriteBatch().put(b("free"), b("1")));
        }
        assertThat(store.get(b("free"))).isEqualTo(b("1"));
    }

    @Test
    void abandonedTransactionWritesNothingAndReleasesItsKeys() {
        try (Transaction txn = store.begin(new byte[][] {b("k")}, TransactionMode.CLAIM)) {
            txn.get(b("k"));
        }
        assertThat(store.get(b("k"))).isNull();
        try (Transaction txn = store.begin(b("k"))) {
            txn.commit(new WriteBatch().put(b("k"), b("v")));
        }
        assertThat(store.get(b("k"))).isEqualTo(b("v"));
    }

    @Test
    void commitIsAtomicAndOnce() {
        try (Transaction txn = store.begin(b("k"))) {
            txn.commit(
                    new WriteBatch().put(b("k"), b("v")).put(b("k2"), b("v2")).delete(b("k3")));
            assertThatThrownBy(() -> txn.commit(new WriteBatch().put(b("k"), b("again"))))
                    .isInstanceOf(IllegalStateException.class);
        }
        assertThat(store.getAll(new byte[][] {b("k"), b("k2")})).isDeepEqualTo(new byte[][] {b("v"), b("v2")});
    }

    /** A snapshot keeps its view while others commit, across keys and through a multi-get. */
    @Test
    void snapshotReadsIgnoreLaterCommits() throws Exception {
        store.apply(new WriteBatch().put(b("x"), b("1")).put(b("y"), b("1")));
        if (snapshotsBlockWriters()) {
            try (Snapshot s = store.snapshot()) {
                assertThat(s.getAll(new byte[][] {b("x"), b("y"), b("z")}))
                        .isDeepEqualTo(new byte[][] {b("1"), b("1"), null});
            }
            return;
        }
        try (Snapshot s = store.snapshot()) {
            try (Transaction txn = store.begin(new byte[][] {b("x"), b("y")}, TransactionMode.CLAIM)) {
                txn.commit(
                        new WriteBatch().put(b("x"), b("2")).put(b("y"), b("2")).put(b("z"), b("2")));
            }
            assertThat(s.get(b("x"))).isEqualTo(b("1"));
            assertThat(s.getAll(new byte[][] {b("x"), b("y"), b("z")}))
                    .isDeepEqualTo(new byte[][] {b("1"), b("1"), null});
        }
        assertThat(store.getAll(new byte[][] {b("x"), b("y"), b("z")}))
                .isDeepEqualTo(new byte[][] {b("2"), b("2"), b("2")});
    }

    @Test
    void multiGetAnswersInOrderWithMissesAndRepeats() {
        store.apply(new WriteBatch().put(b("a"), b("1")).put(b("c"), b("3")));
        byte[][] keys = {b("c"), b("b"), b("a"), b("c")};
        assertThat(store.getAll(keys)).isDeepEqualTo(new byte[][] {b("3"), null, b("1"), b("3")});
        assertThat(store.getAll(new byte[0][])).isEmpty();
        try (Transaction txn = store.begin(new byte[][] {b("a"), b("c")}, TransactionMode.WAIT)) {
            assertThat(txn.getAll(keys)).isDeepEqualTo(new byte[][] {b("3"), null, b("1"), b("3")});
        }
    }

    /** awaitTransactions returns only after a transaction open when it was called has ended. */
    @Test
    @Timeout(60)
    void awaitTransactionsWaitsForOpenOnes() throws Exception {
        CountDownLatch begun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try (Transaction txn = store.begin(b("k"))) {
                begun.countDown();
                release.await();
                txn.commit(new WriteBatch().put(b("k"), b("v")));
                ended.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        writer.start();
        assertThat(begun.await(WAIT_SECONDS_MAX, TimeUnit.SECONDS)).isTrue();
        AtomicInteger returned = new AtomicInteger();
        Thread waiter = new Thread(() -> {
            store.awaitTransactions();
            returned.set(ended.get() ? 2 : 1);
        });
        waiter.start();
        waiter.join(200);
        assertThat(returned.get())
                .as("still waiting while the transaction is open")
                .isZero();
        release.countDown();
        waiter.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS_MAX));
        writer.join();
        assertThat(returned.get()).isEqualTo(2);
    }

    // ---- counters ----------------------------------------------------------------------------

    /** Additions from many threads, in plain batches and in transactions, all count. */
    @Test
    @Timeout(120)
    void counterAdditionsCommuteAcrossThreads() throws Exception {
        byte[] counter = b("count");
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            List<Future<?>> adders = new ArrayList<>();
            for (int r = 0; r < RACERS; r++) {
                int racer = r;
                adders.add(pool.submit(() -> {
                    for (int i = 0; i < rounds(INCREMENTS_PER_RACER); i++) {
                        if (i % 2 == 0) {
                            store.apply(new WriteBatch().add(counter, 3).add(counter, -1));
                        } else {
                            byte[] own = b("own" + racer);
                            try (Transaction txn = store.begin(own)) {
                                txn.commit(new WriteBatch().put(own, b("x")).add(counter, 2));
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : adders) {
                f.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(Counters.decode(store.get(counter))).isEqualTo(2L * RACERS * rounds(INCREMENTS_PER_RACER));
    }

    @Test
    void counterGoesNegativeAndIsReadLikeAnyValue() {
        byte[] counter = b("c");
        assertThat(Counters.decode(store.get(counter))).isZero();
        store.apply(new WriteBatch().add(counter, -5));
        assertThat(Counters.decode(store.get(counter))).isEqualTo(-5);
        store.apply(new WriteBatch().put(counter, Counters.encode(40)).add(counter, 2));
        assertThat(Counters.decode(store.getAll(new byte[][] {counter})[0])).isEqualTo(42);
        try (Snapshot s = store.snapshot()) {
            assertThat(Counters.decode(s.get(counter))).isEqualTo(42);
        }
        store.apply(new WriteBatch().delete(counter).add(counter, 7));
        assertThat(Counters.decode(store.get(counter))).isEqualTo(7);
    }

    // ---- helpers -----------------------------------------------------------------------------

    protected static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    static byte[] longBytes(long v) {
        return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
    }

    static long asLong(byte[] bytes) {
        return bytes == null ? 0 : ByteBuffer.wrap(bytes).getLong();
    }
}
