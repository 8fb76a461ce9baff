package dev.kumiko.ignite;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Runs a read again when the cluster failed it transiently: a call past the client's operation
 * timeout, a node failing over, a partition whose primary replica is being placed, the client's
 * internal error ({@link Conflicts#isConflict}). A read changes nothing, so running it again is
 * safe. On a 2-core machine busy with other work, a freshly started 3-node cluster took longer than
 * the timeout to answer a server's first range query (the catalog's, at open), and both servers
 * failed to start; with these retries (and the query planned at connect) they started and passed
 * scripts/ignite-cluster.sh.
 *
 * <p>Retries are bounded by time as well as count: errors that come back at once (a primary
 * replica not yet placed, the client's internal error) are retried with pauses for up to
 * {@value #DEADLINE_MILLIS} ms, which outlasts a lease handed over late on a busy machine; calls
 * that time out are tried at most {@value #ATTEMPTS_MAX} times. Either way the client hears the
 * error (InternalFailure, which the SDKs retry) within the AWS SDKs' default request timeouts.
 */
final class TransientReads {
    static final int ATTEMPTS_MAX = 48;
    /** The longest pause: past the first attempts, a replica placement takes seconds, not ms. */
    private static final int PAUSE_MILLIS_MAX = 250;

    static final long DEADLINE_MILLIS = 10_000;
    /** Calls that each waited out the client's operation timeout: three are 15 s. */
    private static final long SLOW_CALLS_MILLIS = 15_000;

    private TransientReads() {}

    static <T> T read(Supplier<T> call) {
        long startNanos = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                long elapsedMillis = (System.nanoTime() - startNanos) / 1_000_000;
                if (!Conflicts.isConflict(e) || !retries(attempt, elapsedMillis)) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    private static void pause(int attempt) {
        int ceiling = Math.min(PAUSE_MILLIS_MAX, 1 << Math.min(attempt, 8));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(ceiling / 2 + 1, ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a store read", e);
        }
    }

    /** Whether a read that failed transiently on attempt (1-based), elapsedMillis in, runs again. */
    static boolean retries(int attempt, long elapsedMillis) {
        assert attempt >= 1 && elapsedMillis >= 0;
        if (attempt >= ATTEMPTS_MAX) {
            return false;
        }
        return elapsedMillis < DEADLINE_MILLIS || (attempt < 3 && elapsedMillis < SLOW_CALLS_MILLIS);
    }
}
