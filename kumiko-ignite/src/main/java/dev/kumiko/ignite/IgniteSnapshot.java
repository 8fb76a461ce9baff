package dev.kumiko.ignite;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot as an Ignite read-only transaction: every read sees the cluster at the transaction's
 * timestamp (multi-version storage, no locks), so it neither blocks writers nor sees their commits.
 */
final class IgniteSnapshot implements Snapshot {
    private final IgniteStore store;
    private final Transaction tx;
    private boolean closed;

    IgniteSnapshot(IgniteStore store) {
        this.store = store;
        this.tx = store.client()
                .transactions()
                .begin(new TransactionOptions()
                        .readOnly(true)
                        .timeoutMillis(IgniteTransaction.SNAPSHOT_TIMEOUT_MILLIS));
    }

    @Override
    public byte @Nullable [] get(byte[] key) {
        return TransientReads.read(() -> Rows.value(store.data().get(tx, Rows.key(key))));
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        if (keys.length == 0) {
            return new byte[0][];
        }
        return TransientReads.read(() -> Rows.values(store.data().getAll(tx, Rows.keys(keys))));
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        IgniteStore.checkRange(startInclusive, endExclusive);
        return TransientReads.read(() -> RangeCursor.open(
                store.client().sql(),
                tx,
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
