package dev.kumiko.engine.background;

import dev.kumiko.engine.base.DaemonThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The engine's background work (index backfill, change-log trimming, TTL sweeps): one daemon
 * thread per task kind, stopped before the store closes so that no task touches a closed store.
 */
public final class BackgroundExecutor {
    /** How long close waits for a running step to notice the interrupt and return. */
    private static final long STOP_WAIT_SECONDS = 30;

    private BackgroundExecutor() {}

    public static ExecutorService start(String threadName) {
        return Executors.newSingleThreadExecutor(new DaemonThreads(threadName));
    }

    public static void stop(ExecutorService executor, String what) {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                log().log(System.Logger.Level.WARNING, what + " did not stop within " + STOP_WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Looked up only when something goes wrong: a static logger would start the JDK's logging
     * (about 10 ms) in every Engine.open, which an embedding test pays.
     */
    private static System.Logger log() {
        return System.getLogger(BackgroundExecutor.class.getName());
    }
}
