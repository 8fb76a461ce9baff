package dev.kumiko.engine.backup;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.DaemonThreads;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.storage.Store;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Backups and point-in-time recovery of one engine: the operations, the job runner, and the
 * background task that takes recovery bases. When built (the engine builds it at its open over a
 * store that holds any backup record, otherwise at first use) it settles the jobs a restart cut off:
 * restores are resumed, backups being copied are marked FAILED (their snapshot is gone, and a copy
 * from a later snapshot would not be the state the backup promised).
 */
public final class BackupSystem implements AutoCloseable {
    /** How often the base task looks, at most: sooner when the base interval is shorter. */
    static final long TICK_MILLIS_MAX = 10_000;

    private final Backups backups;
    private final ContinuousBackups continuous;
    private final TableHistory history;
    private final JobRunner jobs;
    private final Lease lease;
    private final ScheduledExecutorService ticker =
            Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-pitr-bases"));

    public BackupSystem(
            Catalog catalog,
            Store store,
            ChangeLog changeLog,
            ItemWriter writer,
            Clock clock,
            EngineSettings settings,
            String owner) {
        BackupStore records = new BackupStore(store);
        this.jobs = new JobRunner(owner, settings.backupStepPauseMillis());
        this.history = new TableHistory(catalog, changeLog, records, clock);
        Restorer restorer = new Restorer(catalog, store, writer, records, history, jobs, clock);
        this.backups = new Backups(catalog, store, records, restorer, jobs, clock);
        this.continuous = new ContinuousBackups(
                catalog, store, changeLog, records, history, restorer, jobs, clock, settings.pitrBaseIntervalMillis());
        this.lease = new Lease(store, "pitr-bases", owner, clock);
        if (store.local()) {
            // Over a store shared by processes a job's owner may live elsewhere: nothing is settled at open.
            backups.failOrphaned();
            continuous.dropOrphaned();
            for (RestoreJob j : records.restores()) {
                if (JobRunner.orphaned(j.owner())) {
                    restorer.resume(j);
                }
            }
        }
        long tick = Math.min(TICK_MILLIS_MAX, settings.pitrBaseIntervalMillis());
        BackgroundExecutor.repeat(ticker, new Tick(), tick, "backup ticker");
    }

    /** What the executor runs: a class, not this::tick, since it is scheduled at open (see Clock.SYSTEM). */
    private final class Tick implements Runnable {
        @Override
        public void run() {
            tick();
        }
    }

    /**
     * The oldest change of t that point-in-time recovery still needs (Long.MAX_VALUE: none), which
     * the change log's trimmer keeps.
     */
    public long keepFrom(Table t) {
        return continuous.keepFrom(t);
    }

    private void tick() {
        try {
            if (lease.hold()) {
                continuous.tick();
            }
        } catch (RuntimeException e) {
            System.getLogger(BackupSystem.class.getName())
                    .log(System.Logger.Level.ERROR, "taking recovery bases failed", e);
        }
    }

    /** CreateBackup, DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup. */
    public Backups backups() {
        return backups;
    }

    /** UpdateContinuousBackups, DescribeContinuousBackups, RestoreTableToPointInTime. */
    public ContinuousBackups continuous() {
        return continuous;
    }

    /** Reads of a table as of a time, and of its changes between two times (restores, exports). */
    public TableHistory history() {
        return history;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        jobs.close();
        lease.release();
    }
}
