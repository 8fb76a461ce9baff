package dev.kumiko.engine;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.base.DaemonThreads;
import dev.kumiko.engine.index.IndexBackfill;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Brings the engine's catalog mirror up to date with changes other engines made to the shared
 * store (UpdateTable, DeleteTable), on a short interval: one store read per interval when nothing
 * changed, nothing on the request path. A table created elsewhere needs no wait: a lookup that
 * misses checks at once ({@link Catalog#get}).
 */
final class CatalogWatch implements AutoCloseable {
    /** How stale another engine's UpdateTable or DeleteTable can look here. */
    static final long INTERVAL_MILLIS = 100;
    /** How often orphaned background work (a backfill whose engine died) is looked for. */
    static final long ADOPT_EVERY_INTERVALS = 100;

    private final Catalog catalog;
    private final IndexBackfill backfill;
    private long checks;
    private final ScheduledExecutorService executor =
            Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-catalog-watch"));

    /** backfill: resumed every ADOPT_EVERY_INTERVALS checks, to take over work a dead engine left. */
    CatalogWatch(Catalog catalog, IndexBackfill backfill) {
        this.catalog = catalog;
        this.backfill = backfill;
    }

    void start() {
        BackgroundExecutor.repeat(executor, new Tick(), INTERVAL_MILLIS, "catalog watch");
    }

    /** What the executor runs: a class, not this::check, since it is scheduled at open (see Clock.SYSTEM). */
    private final class Tick implements Runnable {
        @Override
        public void run() {
            check();
        }
    }

    private void check() {
        try {
            catalog.refresh();
            if (++checks % ADOPT_EVERY_INTERVALS == 0) {
                backfill.resumeAll();
            }
        } catch (RuntimeException e) {
            // The store is closing or failing; the next look tries again.
            System.getLogger(CatalogWatch.class.getName()).log(System.Logger.Level.DEBUG, "catalog refresh failed", e);
        }
    }

    @Override
    public void close() {
        BackgroundExecutor.stop(executor, "catalog watch");
    }
}
