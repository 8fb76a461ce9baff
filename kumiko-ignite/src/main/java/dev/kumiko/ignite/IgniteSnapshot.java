package dev.kumiko.ignite;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import java.util.function.Function;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot as an Ignite read-only transaction: every read sees the cluster at the transaction's
 * timestamp (multi-version storage, no locks), so it neither blocks writers nor sees their commits.
 *
 * <p>A transient failure can end the transaction itself: the client then answers every later call
 * in it with "Transaction is already finished" (IGN-TX-13, seen in TransactGetItems under
 * scripts/ignite-cluster.sh), so retrying in the same transaction cannot succeed. Until the first
 * read has answered, nothing has been seen at the old timestamp and a fresh transaction is as good
 * a snapshot; after it, the failure reaches the caller (an InternalFailure the SDKs retry), as
 * mixing two timestamps would break the snapshot.
 */
final class IgniteSnapshot implements Snapshot {
    private final IgniteStore store;
    private Transaction tx;
    private boolean answered;
    private boolean closed;

    IgniteSnapshot(IgniteStore store) {
        this.store = store;
        this.tx = begin(store);
    }

    private static Transaction begin(IgniteStore store) {
        return store.client()
                .transactions()
                .begin(new TransactionOptions()
                        .readOnly(true)
                        .timeoutMillis(IgniteTransaction.SNAPSHOT_TIMEOUT_MILLIS));
    }

    /** Runs one read in the snapshot's transaction, with TransientReads' retries. */
    private <T> T read(Function<Transaction, T> call) {
        T value = TransientReads.read(() -> {
            try {
                return call.apply(tx);
            } catch (RuntimeException e) {
                if (!answered && Conflicts.isConflict(e)) {
                    CounterFolds.rollbackQuietly(tx);
                    tx = begin(store);
                }
                throw e;
            }
        });
        answered = true;
        return value;
    }

    @Override
    public byte @Nullable [] get(byte[] key) {
        return read(t -> Rows.value(store.data().get(t, Rows.key(key))));
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        if (keys.length == 0) {
            return new byte[0][];
        }
        return read(t -> Rows.values(store.data().getAll(t, Rows.keys(keys))));
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        IgniteStore.checkRange(startInclusive, endExclusive);
        return read(t -> RangeCursor.open(
                store.client().sql(),
                t,
                Colocation.groupOfRange(startInclusive, endExclusive),
                startInclusive,
                endExclusive,
                reverse));
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            CounterFolds.rollbackQuietly(tx);
        }
    }
}
