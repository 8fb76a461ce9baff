package dev.kumiko.engine.backup;

import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.base.DaemonThreads;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs backup and restore jobs on a few daemon threads of this engine, and tells whether
 * a job's owner is still alive. Over a local store every engine that can reach it is in this
 * process, so a job whose owner is not a live engine here was cut off by a restart or a crash.
 */
final class JobRunner implements AutoCloseable {
    /** The engines of this process that own jobs. */
    private static final Set<String> LIVE_OWNERS = ConcurrentHashMap.newKeySet();

    private final String owner;
    private final long stepPauseMillis;
    /** Jobs running at once; a queued job's snapshot would otherwise wait behind a long one. */
    static final int THREADS = 4;
    /** How long a request waits for its job to take its snapshot. */
    static final long START_WAIT_SECONDS = 60;

    private final ExecutorService executor =
            Executors.newFixedThreadPool(THREADS, new DaemonThreads("kumiko-backup-jobs"));

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

    /**
     * Runs job on a job thread and waits until it hands its first result to the consumer it is
     * given (a backup's record, once its snapshot is open); the job then goes on in the background.
     * A failure before that is thrown here.
     */
    <T> T submitAndAwaitStart(String what, Consumer<Consumer<T>> job) {
        CompletableFuture<T> started = new CompletableFuture<>();
        submit(what, () -> {
            try {
                job.accept(started::complete);
            } catch (RuntimeException e) {
                started.completeExceptionally(e);
                throw e;
            }
        });
        try {
            return started.get(START_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " did not start within " + START_WAIT_SECONDS + " s", e);
        }
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
