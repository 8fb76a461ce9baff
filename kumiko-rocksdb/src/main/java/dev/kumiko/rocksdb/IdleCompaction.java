package dev.kumiko.rocksdb;

import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.base.DaemonThreads;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Settles the tree when writes pause: once no write has come for a whole check interval, and at
 * least {@link #SETTLE_WRITES_MIN} have come since the last settle, the memtable is flushed, and if
 * the table files hold at most {@code bytesMax} and level 0 is not empty, the whole key range is
 * compacted into one level.
 *
 * <p>Why: a burst of overwrites leaves each key in up to three places (the memtable, a level-0
 * file, the bottom level), and RocksDB compacts only as writes go on, so a range read after the
 * burst merges them all and skips the older versions of every key it returns: a Query page after
 * the harness's put and update workloads cost about 1.7 times its CPU on a settled tree
 * (docs/performance-notes.md). Point reads mostly hit the bloom filters and the point cache, so it is
 * range reads that gain.
 *
 * <p>Bounded: one check a second (a sequence number read, no call on the write path); the flush
 * is at most one memtable; the compaction only below {@code bytesMax} of table files, so a large
 * store is not rewritten whole whenever it goes quiet (RocksDB's own compactions keep it in
 * shape). Writes that arrive during the work proceed (the compaction is not exclusive); the
 * next quiet interval settles again. {@link #close} cancels a compaction in progress.
 */
final class IdleCompaction implements AutoCloseable {
    static final long CHECK_INTERVAL_MILLIS = 1_000;
    /**
     * Writes (RocksDB sequence numbers, one per key written) since the last settle below which a
     * quiet interval is left to RocksDB. The engine's background tasks write a lease or their
     * progress now and then, a few keys a minute in an idle server: settling after each of them
     * flushed a memtable of one key, which left a level-0 file, and so compacted the whole tree
     * again, every 10-50 s without a single request (RocksDB's LOG), and left the block cache
     * cold for the rewritten files each time.
     */
    static final long SETTLE_WRITES_MIN = 1_000;
    /** How long close waits for a check to notice the cancel and return. */
    static final long CLOSE_WAIT_MILLIS_MAX = 30_000;

    private final RocksDB db;
    private final NativeGuard guard;
    private final long bytesMax;
    private final CompactRangeOptions compactOptions;
    private final FlushOptions flushOptions;
    private final ScheduledExecutorService timer;
    // Only the timer's one thread reads and writes these.
    private long sequenceSeen = -1;
    private long sequenceSettled = -1;
    private volatile long settledCount; // written by the timer thread alone, so ++ is safe
    private volatile boolean closing;

    IdleCompaction(RocksDB db, NativeGuard guard, long bytesMax) {
        assert bytesMax > 0;
        this.db = db;
        this.guard = guard;
        this.bytesMax = bytesMax;
        this.compactOptions = new CompactRangeOptions();
        this.flushOptions = new FlushOptions().setWaitForFlush(true);
        this.timer = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-rocksdb-idle"));
        BackgroundExecutor.repeat(timer, this::check, CHECK_INTERVAL_MILLIS, "RocksDB idle compaction");
    }

    /** How many quiet intervals have been settled (flushed, and compacted when small enough). */
    long settledCount() {
        return settledCount;
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // settledCount has one writer, this thread
    private void check() {
        if (closing) {
            return;
        }
        try {
            guard.enter();
        } catch (IllegalStateException closed) {
            return;
        }
        try {
            long sequence = db.getLatestSequenceNumber();
            boolean quiet = sequence == sequenceSeen;
            sequenceSeen = sequence;
            if (quiet && sequence - sequenceSettled >= SETTLE_WRITES_MIN) {
                // Marked before the work, so that a failure is tried again only after a write,
                // not every second (a full disk would otherwise log a warning each time).
                sequenceSettled = sequence;
                settle();
                settledCount++;
            }
        } catch (RocksDBException | RuntimeException e) {
            // The tree stays as RocksDB's own work left it; the next quiet interval after a write
            // tries again. An exception must not escape: the timer would run no further checks.
            if (!closing) { // at close, a cancelled compaction is expected
                System.getLogger(IdleCompaction.class.getName())
                        .log(System.Logger.Level.WARNING, "idle flush or compaction failed", e);
            }
        } finally {
            guard.exit();
        }
    }

    private void settle() throws RocksDBException {
        if (db.getLongProperty("rocksdb.num-entries-active-mem-table") > 0
                || db.getLongProperty("rocksdb.num-immutable-mem-table") > 0) {
            db.flush(flushOptions);
        }
        if (!closing && levelZeroFiles(db) > 0 && db.getLongProperty("rocksdb.live-sst-files-size") <= bytesMax) {
            db.compactRange(null, null, null, compactOptions); // null: the default column family
        }
    }

    /** A string property: RocksDB has no integer form of a level's file count. */
    static long levelZeroFiles(RocksDB db) throws RocksDBException {
        return Long.parseLong(db.getProperty("rocksdb.num-files-at-level0").trim());
    }

    /**
     * Cancels a compaction in progress and stops the checks; call before the database closes. The
     * options are freed only once the thread has stopped (a check still running would use them);
     * the store's guard keeps the database open until that check's native call is out.
     */
    @Override
    public void close() {
        closing = true;
        compactOptions.setCanceled(true);
        timer.shutdown();
        boolean stopped = false;
        try {
            stopped = timer.awaitTermination(CLOSE_WAIT_MILLIS_MAX, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopped) {
            compactOptions.close();
            flushOptions.close();
        }
    }
}
