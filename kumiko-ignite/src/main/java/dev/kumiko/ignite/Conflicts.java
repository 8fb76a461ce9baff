package dev.kumiko.ignite;

import dev.kumiko.storage.StoreConflictException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import org.apache.ignite.client.IgniteClientConnectionException;
import org.apache.ignite.lang.ErrorGroups;
import org.apache.ignite.lang.IgniteException;
import org.apache.ignite.tx.TransactionException;

/**
 * Ignite's transaction errors as the engine's conflicts. Ignite 3 locks what a read-write
 * transaction reads and writes and prevents deadlocks by aborting one of two transactions that
 * meet (a lock it cannot take, a transaction already aborted for that reason, a primary replica
 * that moved): each is the engine's retryable conflict, and nothing of the aborted transaction
 * was written.
 */
final class Conflicts {
    private static final short TX_GROUP = ErrorGroups.Transactions.TX_ERR_GROUP.groupCode();
    private static final short REPLICATOR_GROUP = ErrorGroups.Replicator.REPLICATOR_ERR_GROUP.groupCode();
    /**
     * A partition without a primary replica for the moment: "Failed to get the primary replica",
     * seen as IGN-DISTRZONES-1 on a 3-node cluster on 2 busy cores (scripts/ignite-cluster.sh,
     * a PutItem right after a CreateTable, while the leases were being renewed late). Kumiko
     * creates its zones at connect and never drops one, so every error of these groups is a
     * placement in progress, which the next attempt finds done.
     */
    private static final short PLACEMENT_GROUP = ErrorGroups.PlacementDriver.PLACEMENT_DRIVER_ERR_GROUP.groupCode();

    private static final short ZONES_GROUP = ErrorGroups.DistributionZones.DISTRIBUTION_ZONES_ERR_GROUP.groupCode();
    /** Causes looked at before giving up: the client wraps the node's error a few times. */
    private static final int CAUSE_DEPTH_MAX = 8;

    private static final int BACKOFF_MILLIS_MAX = 64;

    private Conflicts() {}

    /**
     * Whether error (or a cause) aborted the Ignite transaction in a way that running the
     * read-modify-write again can cure: a transaction error (lock conflict, an aborted or timed-out
     * transaction, a primary replica that moved), a replication error, a partition whose primary
     * replica is being placed, a lost connection to a
     * node (a node failing over), a call past the client's operation timeout, or the client's own
     * internal error (under heavy load the 3.1.0 client has failed a call with "refCnt: 0" from a
     * network buffer it released too early), or a transaction whose context the client lost with its
     * connection ("Transaction context has been lost due to connection errors", seen on a loaded
     * machine: the transaction is gone). A commit that fails this way may, rarely, have
     * committed: the engine's retry reads again and re-evaluates its condition, as a client
     * retrying a 500 would.
     */
    static boolean isConflict(Throwable error) {
        Throwable t = error;
        for (int depth = 0; t != null && depth < CAUSE_DEPTH_MAX; depth++) {
            if (t instanceof TransactionException
                    || t instanceof IgniteClientConnectionException
                    || t instanceof TimeoutException) {
                return true;
            }
            if (t instanceof IgniteException ignite
                    && (ignite.groupCode() == TX_GROUP
                            || ignite.groupCode() == REPLICATOR_GROUP
                            || ignite.groupCode() == PLACEMENT_GROUP
                            || ignite.groupCode() == ZONES_GROUP
                            || ignite.code() == ErrorGroups.Common.INTERNAL_ERR
                            || ignite.code() == ErrorGroups.Client.CONNECTION_ERR)) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }

    static StoreConflictException retryable() {
        return new StoreConflictException(null, false);
    }

    /** A growing, jittered pause before attempt (1-based) of a store-internal retry. */
    static void pause(int attempt) {
        int ceiling = Math.min(BACKOFF_MILLIS_MAX, 1 << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(1, ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a store call", e);
        }
    }
}
