package dev.kumiko.engine.changelog;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.DaemonThreads;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Bounds the change log: DynamoDB Streams keeps records for 24 hours, so a background task
 * deletes the older ones, table by table, in bounded batches. It runs on its own daemon thread
 * and is stopped before the store closes.
 */
public final class ChangeLogTrimmer implements AutoCloseable {
    /** DynamoDB Streams' retention: records older than 24 hours are trimmed. */
    public static final long RETENTION_MILLIS = 24L * 60 * 60 * 1000;
    /** How often the trimmer looks: records are at most this much past retention when removed. */
    static final long INTERVAL_MILLIS = 60_000;
    /** Records deleted per storage batch, so a large backlog never makes one huge batch. */
    static final int CHUNK_RECORDS = 1_000;

    /** keepFrom until one is set: nothing beyond streams' 24 hours (a class: see Clock.SYSTEM). */
    private static final java.util.function.ToLongFunction<Table> KEEP_NOTHING_MORE =
            new java.util.function.ToLongFunction<>() {
                @Override
                public long applyAsLong(Table t) {
                    return Long.MAX_VALUE;
                }
            };

    private final Catalog catalog;
    private final ChangeLog changeLog;
    private final Clock clock;
    /** Of all engines over the store, the one holding it trims. */
    private final Lease lease;
    /** Per table, the oldest record time something else still needs (point-in-time recovery). */
    private volatile java.util.function.ToLongFunction<Table> keepFrom = KEEP_NOTHING_MORE;

    private final ScheduledExecutorService executor =
            Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-changelog-trim"));

    public ChangeLogTrimmer(Catalog catalog, ChangeLog changeLog, Clock clock, Lease lease) {
        this.catalog = catalog;
        this.changeLog = changeLog;
        this.clock = clock;
        this.lease = lease;
    }

    /**
     * Also keeps, per table, every record created at or after keepFrom's answer (Long.MAX_VALUE:
     * nothing beyond streams' 24 hours): point-in-time recovery's window.
     */
    public void keepFrom(java.util.function.ToLongFunction<Table> keepFrom) {
        this.keepFrom = keepFrom;
    }

    public void start() {
        BackgroundExecutor.repeat(executor, new Tick(), INTERVAL_MILLIS, "change log trimmer");
    }

    /** What the executor runs: a class, not this::runLogged, since it is scheduled at open (see Clock.SYSTEM). */
    private final class Tick implements Runnable {
        @Override
        public void run() {
            runLogged();
        }
    }

    private void runLogged() {
        try {
            if (lease.hold()) {
                trimNow();
            }
        } catch (RuntimeException e) {
            log().log(System.Logger.Level.ERROR, "trimming the change log failed", e);
        }
    }

    /** Trims every table's records older than the retention period now; returns how many. */
    public synchronized long trimNow() {
        long cutoff = clock.nowMillis() - RETENTION_MILLIS;
        long deleted = 0;
        Set<Integer> ids = new HashSet<>();
        for (Table t : tables()) {
            ids.add(t.descriptor().id());
            long tableCutoff = Math.min(cutoff, keepFrom.applyAsLong(t));
            deleted += changeLog.trim(t.descriptor().id(), tableCutoff, CHUNK_RECORDS);
        }
        // A table created since the list was taken is looked up again before it is forgotten.
        changeLog.forgetDropped(id -> ids.contains(id)
                || tables().stream().anyMatch(t -> t.descriptor().id() == id));
        return deleted;
    }

    private List<Table> tables() {
        return catalog.tables();
    }

    @Override
    public void close() {
        BackgroundExecutor.stop(executor, "change log trimmer");
        lease.release();
    }

    /** Looked up only on failure (see BackgroundExecutor.log: the JDK's logging costs ~10 ms to start). */
    private static System.Logger log() {
        return System.getLogger(ChangeLogTrimmer.class.getName());
    }
}
