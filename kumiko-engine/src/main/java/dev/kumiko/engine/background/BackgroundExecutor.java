package dev.kumiko.engine.background;

import dev.kumiko.engine.base.DaemonThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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

    /**
     * Runs {@code tick} every {@code delayMillis} until the executor stops. A tick that threw would end
     * the repetition with the exception kept in a future nobody reads, so what a tick throws is logged
     * here and the next tick runs; the future itself is not needed (stop ends the repetition).
     */
    @SuppressWarnings("FutureReturnValueIgnored")
    public static void repeat(ScheduledExecutorService executor, Runnable tick, long delayMillis, String what) {
        assert delayMillis > 0 : delayMillis;
        executor.scheduleWithFixedDelay(new Logged(tick, what), delayMillis, delayMillis, TimeUnit.MILLISECONDS);
    }

    /** A class, not a lambda: it is made at every engine's open (see Clock.SYSTEM on lambdas at start). */
    private record Logged(Runnable tick, String what) implements Runnable {
        @Override
        public void run() {
            try {
                tick.run();
            } catch (RuntimeException e) {
                log().log(System.Logger.Level.ERROR, what + " failed; it runs again at its next tick", e);
            }
        }
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
