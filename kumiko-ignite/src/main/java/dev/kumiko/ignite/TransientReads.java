package dev.kumiko.ignite;

import java.util.function.Supplier;

/**
 * Runs a read again when the cluster failed it transiently: a call past the client's operation
 * timeout, a node failing over, the client's internal error ({@link Conflicts#isConflict}). A
 * read changes nothing, so running it again is safe. On a 2-core machine busy with other work, a
 * freshly started 3-node cluster took longer than the timeout to answer a server's first range
 * query (the catalog's, at open), and both servers failed to start; with these retries (and the
 * query planned at connect) they started and passed scripts/ignite-cluster.sh.
 *
 * <p>Attempts are bounded, so a client waits at most {@value #ATTEMPTS_MAX} operation timeouts
 * (15 s) before it gets the error (InternalFailure, which the SDKs retry): inside the AWS SDKs'
 * default request timeouts.
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
