package dev.kumiko.rocksdb;

import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.base.DaemonThreads;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.rocksdb.DirectSlice;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * One RocksIterator per thread, kept between the thread's range reads ({@link RocksStore#scan}):
 * a Query or Scan page then refreshes and moves an iterator instead of making and freeing one with
 * its read options and bound slices, which measured 0.85 of the time of a page of 50 entries
 * (paired page by page in one JVM).
 *
 * <p>The iterator's bounds are slices over direct buffers that the thread rewrites before each
 * seek: RocksDB keeps pointers to the slices, not copies, and checks the bounds again from the
 * next seek on. A forward read sets the lower bound empty (no key is below it), a reverse one to
 * its start. {@link RocksIterator#refresh} moves the iterator to the database's latest state,
 * cheaply when no flush or compaction happened since its last use.
 *
 * <p>An iterator keeps the memtables and table files it was made over from being freed, so one
 * left idle would hold what later compactions made obsolete. A timer closes iterators unused for
 * {@link #IDLE_MILLIS_MAX}; the thread makes a new one at its next read. Each iterator is lent to
 * one cursor at a time: a second cursor on the same thread, or one whose bound is longer than
 * {@link #BOUND_BYTES_MAX}, gets an iterator of its own ({@link RocksCursor}).
 */
final class IteratorCache implements AutoCloseable {
    /** Longest key a kept iterator's bound holds; keys are at most a few KB (DynamoDB: 2 KB + 1 KB). */
    static final int BOUND_BYTES_MAX = 4096;
    /** An iterator unused this long is closed, so that it holds no obsolete files for longer. */
    static final long IDLE_MILLIS_MAX = 1_000;

    private static final int FREE = 0;
    private static final int LENT = 1;
    private static final int CLOSED = 2;

    private final RocksDB db;
    private final NativeGuard guard;

    @SuppressWarnings("ThreadLocalUsage") // one per cache on purpose: each store keeps its own iterators
    private final ThreadLocal<Kept> mine = new ThreadLocal<>();

    private final Set<Kept> all = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    IteratorCache(RocksDB db, NativeGuard guard) {
        this.db = db;
        this.guard = guard;
        this.timer = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-rocksdb-iterators"));
        BackgroundExecutor.repeat(timer, this::sweep, IDLE_MILLIS_MAX, "RocksDB iterator sweep");
    }

    /** A thread's kept iterator with its bounds; lent by {@link #lend}, given back by {@link #giveBack}. */
    static final class Kept {
        private final ByteBuffer lower = ByteBuffer.allocateDirect(BOUND_BYTES_MAX);
        private final ByteBuffer upper = ByteBuffer.allocateDirect(BOUND_BYTES_MAX);
        private final DirectSlice lowerBound = new DirectSlice(lower, 0);
        private final DirectSlice upperBound = new DirectSlice(upper, 0);
        private final ReadOptions readOptions =
                new ReadOptions().setIterateLowerBound(lowerBound).setIterateUpperBound(upperBound);
        private final RocksIterator iterator;
        private final AtomicInteger state = new AtomicInteger(LENT);
        private volatile long usedNanos = System.nanoTime();
        // Only the owning thread reads and writes it: the lower bound's length now, 0 (empty) after a forward read.
        private int lowerBytes;

        private Kept(RocksDB db) {
            this.iterator = db.newIterator(readOptions);
        }

        RocksIterator iterator() {
            return iterator;
        }

        /**
         * Sets the bounds to the range, moves to the latest state and seeks to the range's first
         * key (its last, in reverse).
         */
        private void position(byte[] start, byte[] end, boolean reverse) throws RocksDBException {
            upper.clear();
            upper.put(end);
            upperBound.setLength(end.length);
            if (reverse) {
                lower.clear();
                lower.put(start);
                lowerBound.setLength(start.length);
                lowerBytes = start.length;
            } else if (lowerBytes != 0) {
                lowerBound.setLength(0);
                lowerBytes = 0;
            }
            iterator.refresh();
            if (reverse) {
                iterator.seekToLast();
            } else {
                iterator.seek(start);
            }
        }

        private void closeNative() {
            iterator.close();
            readOptions.close();
            lowerBound.close();
            upperBound.close();
        }
    }

    /**
     * This thread's kept iterator bounded by [start, end) and positioned at the range's first key
     * (its last, in reverse), or null when it cannot lend one (the thread's is lent already, a
     * bound is too long, or the cache is closed). Call between guard.enter() and guard.exit().
     */
    @Nullable
    Kept lend(byte[] start, byte[] end, boolean reverse) {
        if (closed || end.length > BOUND_BYTES_MAX || start.length > BOUND_BYTES_MAX) {
            return null;
        }
        Kept kept = mine.get();
        if (kept == null || !kept.state.compareAndSet(FREE, LENT)) {
            if (kept != null && kept.state.get() == LENT) {
                return null; // a cursor of this thread still has it
            }
            kept = new Kept(db); // none yet, or the timer closed it
            all.add(kept);
            mine.set(kept);
        }
        boolean positioned = false;
        try {
            kept.position(start, end, reverse);
            positioned = true;
            return kept;
        } catch (RocksDBException e) {
            throw new RocksStoreException("refresh", e);
        } finally {
            if (!positioned) {
                giveBack(kept);
            }
        }
    }

    /** Takes back a lent iterator; call between guard.enter() and guard.exit(), or from the guard's close. */
    void giveBack(Kept kept) {
        kept.usedNanos = System.nanoTime();
        boolean wasLent = kept.state.compareAndSet(LENT, FREE);
        assert wasLent : "an iterator given back that was not lent";
    }

    /** Closes iterators unused for longer than IDLE_MILLIS_MAX; the timer's task. */
    void sweep() {
        sweep(System.nanoTime());
    }

    /** Closes the iterators that are free and were last given back before nowNanos - IDLE_MILLIS_MAX. */
    @SuppressWarnings("ModifyCollectionInEnhancedForLoop") // a concurrent set: removal while iterating is safe
    void sweep(long nowNanos) {
        try {
            guard.enter();
        } catch (IllegalStateException storeClosed) {
            return;
        }
        try {
            for (Kept kept : all) {
                if (nowNanos - kept.usedNanos > TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS_MAX)
                        && kept.state.compareAndSet(FREE, CLOSED)) {
                    all.remove(kept);
                    kept.closeNative();
                }
            }
        } finally {
            guard.exit();
        }
    }

    /** Iterators kept now (lent or free), for tests. */
    int keptCount() {
        return all.size();
    }

    /**
     * Stops the timer and closes every kept iterator; call from the store's close, after the guard
     * has released the cursors left open (so none is lent) and before the database closes.
     */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        try {
            timer.awaitTermination(IdleCompaction.CLOSE_WAIT_MILLIS_MAX, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Kept kept : all) {
            if (kept.state.compareAndSet(FREE, CLOSED)) {
                kept.closeNative();
            }
        }
        all.clear();
    }
}
