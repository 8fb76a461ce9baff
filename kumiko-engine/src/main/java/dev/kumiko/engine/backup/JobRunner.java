package dev.kumiko.engine.backup;

import dev.kumiko.engine.BackgroundExecutor;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * Runs backup and restore jobs, one at a time, on a daemon thread of this engine, and tells whether
 * a job's owner is still alive. Over a local store every engine that can reach it is in this
 * process, so a job whose owner is not a live engine here was cut off by a restart or a crash.
 */
final class JobRunner implements AutoCloseable {
    /** The engines of this process that own jobs. */
    private static final Set<String> LIVE_OWNERS = ConcurrentHashMap.newKeySet();

    private final String owner;
    private final long stepPauseMillis;
    private final ExecutorService executor = BackgroundExecutor.start("kumiko-backup-jobs");

    JobRunner(String owner, long stepPauseMillis) {
        this.owner = owner;
        this.stepPauseMillis = stepPauseMillis;
        LIVE_OWNERS.add(owner);
    }

    String owner() {
        return owner;
    }

    /** Whether a job of this owner was cut off (its engine is gone). */
    static boolean orphaned(String jobOwner) {
        return !LIVE_OWNERS.contains(jobOwner);
    }

    void submit(String what, Runnable job) {
        executor.execute(() -> {
            try {
                job.run();
            } catch (Stopped stopped) {
                // The engine is closing: the job stays as it is and is resumed or failed at the next open.
            } catch (RuntimeException e) {
                System.getLogger(JobRunner.class.getName()).log(System.Logger.Level.ERROR, what + " failed", e);
            }
        });
    }

    /** The pause before each batch; throws {@link Stopped} when the engine closes meanwhile. */
    void pause() {
        if (Thread.currentThread().isInterrupted()) {
            throw new Stopped();
        }
        if (stepPauseMillis > 0) {
            try {
                Thread.sleep(stepPauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Stopped();
            }
        }
    }

    /** A job's thread was interrupted because the engine closes. */
    static final class Stopped extends RuntimeException {
        Stopped() {
            super("stopped", null, false, false);
        }
    }

    @Override
    public void close() {
        BackgroundExecutor.stop(executor, "backup jobs");
        LIVE_OWNERS.remove(owner);
    }
}
