package dev.kumiko.ignite;

import java.util.function.Supplier;

/**
 * Runs a read again when the cluster failed it transiently: a call past the client's operation
 * timeout, a node failing over, the client's internal error ({@link Conflicts#isConflict}). A
 * read changes nothing, so running it again is safe. On a busy machine a freshly started cluster
 * has been seen to stall a call past the timeout (a node planning its first SQL query while others
 * take partitions' leases); the call after it answered in milliseconds.
 *
 * <p>Attempts are bounded, so a client waits at most {@value #ATTEMPTS_MAX} operation timeouts
 * (15 s) before it gets the error: inside the AWS SDKs' default request timeouts.
 */
final class TransientReads {
    static final int ATTEMPTS_MAX = 3;

    private TransientReads() {}

    static <T> T read(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (!Conflicts.isConflict(e) || attempt == ATTEMPTS_MAX) {
                    throw e;
                }
                Conflicts.pause(attempt);
            }
        }
    }
}
