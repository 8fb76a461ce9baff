package dev.kumiko.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The engine's background work (index backfill, change-log trimming, TTL sweeps): one daemon
 * thread per task kind, stopped before the store closes so that no task touches a closed store.
 */
public final class BackgroundExecutor {
    private static final System.Logger LOG = System.getLogger(BackgroundExecutor.class.getName());
    /** How long close waits for a running step to notice the interrupt and return. */
    private static final long STOP_WAIT_SECONDS = 30;

    private BackgroundExecutor() {}

    public static ExecutorService start(String threadName) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    public static void stop(ExecutorService executor, String what) {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, what + " did not stop within " + STOP_WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
