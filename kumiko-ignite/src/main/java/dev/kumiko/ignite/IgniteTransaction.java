package dev.kumiko.ignite;

import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.TransactionOptions;
import org.jspecify.annotations.Nullable;

/**
 * A store transaction as one Ignite read-write transaction. Ignite locks every key read (shared)
 * and written (exclusive) until the end, which gives the contract's protection of read keys;
 * when two transactions meet, Ignite aborts one, which surfaces here as a retryable
 * {@link StoreConflictException}. A CLAIM transaction first commits claims on its keys
 * ({@link Claims}); any transaction first checks its keys' claims.
 *
 * <p>Before it reads a key, a transaction writes the key's row in {@value IgniteSchema#LOCKS}, so
 * it holds an exclusive lock on that row before its read takes a shared one on the data. Two
 * transactions that read one key and then both write it would otherwise each hold the shared lock
 * and wait for the other's to become exclusive; Ignite 3.1 was seen to leave such a pair waiting
 * past the transaction timeout. Exclusive first, the second simply meets the first's lock, and
 * Ignite makes the younger give way at once (a conflict, which the engine retries).
 */
final class IgniteTransaction implements Transaction {
    /**
     * Ignite aborts a read-write transaction open longer than this. A store transaction lasts
     * milliseconds; one waiting this long is stuck behind another (a server that stopped answering
     * while holding locks, say), and its abort becomes the engine's bounded retry, then
     * TransactionConflict, well inside an SDK's request timeout.
     */
    static final long TIMEOUT_MILLIS = 10_000;
    /** A snapshot reads without locks and may read a whole table (a backup): it may live longer. */
    static final long SNAPSHOT_TIMEOUT_MILLIS = 30_000;
    /** A lock row carries nothing: its write is the point. */
    private static final byte[] LOCK_VALUE = new byte[0];

    private final IgniteStore store;
    private final CountDownLatch ended;
    private final List<Tuple> claimRows;
    private final int[] stripes;
    /** Stripes of keys first read inside the transaction, taken with a bounded wait. */
    private int[] lateStripes = new int[0];

    private int lateCount;
    /** Keys whose lock row this transaction has written. */
    private final Set<BatchWrites.ByteKey> locked = new HashSet<>();

    private org.apache.ignite.tx.@Nullable Transaction tx;
    private boolean committed;
    private boolean closed;

    IgniteTransaction(IgniteStore store, byte[][] keys, TransactionMode mode) {
        this.store = store;
        if (mode == TransactionMode.CLAIM) {
            this.claimRows = store.claims().claim(keys, UUID.randomUUID().toString());
        } else {
            store.claims().check(keys);
            this.claimRows = List.of();
        }
        this.stripes = store.stripes().tryLockAll(keys, LocalStripes.QUEUE_MILLIS);
        this.ended = store.openTransactions().register();
    }

    private org.apache.ignite.tx.Transaction tx() {
        if (committed || closed) {
            throw new IllegalStateException("transaction already " + (committed ? "committed" : "closed"));
        }
        if (tx == null) {
            tx = store.client().transactions().begin(new TransactionOptions().timeoutMillis(TIMEOUT_MILLIS));
        }
        return tx;
    }

    /** Queues this process's other transactions reading the key behind this one (see LocalStripes). */
    private void lockLate(byte[] key) {
        int stripe = LocalStripes.stripeOf(key);
        for (int held : stripes) {
            if (held == stripe) {
                return;
            }
        }
        for (int i = 0; i < lateCount; i++) {
            if (lateStripes[i] == stripe) {
                return;
            }
        }
        if (store.stripes().tryLock(stripe)) {
            if (lateCount == lateStripes.length) {
                lateStripes = java.util.Arrays.copyOf(lateStripes, Math.max(4, lateCount * 2));
            }
            lateStripes[lateCount++] = stripe;
        }
    }

    /** Writes the lock rows of the keys not yet locked by this transaction (see the class comment). */
    private void lockRows(org.apache.ignite.tx.Transaction t, byte[]... keys) {
        List<Tuple> rows = new ArrayList<>(keys.length);
        for (byte[] key : keys) {
            if (locked.add(new BatchWrites.ByteKey(key))) {
                rows.add(Rows.row(key, LOCK_VALUE));
            }
        }
        if (!rows.isEmpty()) {
            TxBatches.upsertAll(store.locks(), t, rows);
        }
    }

    @Override
    public byte @Nullable [] get(byte[] key) {
        lockLate(key);
        try {
            org.apache.ignite.tx.Transaction t = tx();
            lockRows(t, key);
            return Rows.value(store.data().get(t, Rows.key(key)));
        } catch (RuntimeException e) {
            throw abort(e);
        }
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        if (keys.length == 0) {
            return new byte[0][];
        }
        for (byte[] key : keys) {
            lockLate(key);
        }
        try {
            org.apache.ignite.tx.Transaction t = tx();
            lockRows(t, keys);
            return Rows.values(TxBatches.getAll(store.data(), t, Rows.keys(keys)));
        } catch (RuntimeException e) {
            throw abort(e);
        }
    }

    @Override
    public void commit(WriteBatch batch) {
        org.apache.ignite.tx.Transaction t = tx();
        BatchWrites writes = BatchWrites.of(batch);
        try {
            writes.write(store.data(), store.deltas(), t);
            releaseLockRowsOfDeleted(t, writes.deletes());
            t.commit();
        } catch (RuntimeException e) {
            throw abort(e);
        } finally {
            committed = true;
        }
        store.folds().fold(writes.deltas());
    }

    /**
     * Deletes the lock rows of deleted items, with the delete, so that lock rows do not outlive
     * their items; a later transaction on the key writes its row again.
     */
    private void releaseLockRowsOfDeleted(org.apache.ignite.tx.Transaction t, List<Tuple> deletedKeys) {
        List<Tuple> rows = new ArrayList<>();
        for (Tuple key : deletedKeys) {
            if (locked.contains(new BatchWrites.ByteKey(key.bytesValue(Rows.K)))) {
                rows.add(key);
            }
        }
        if (!rows.isEmpty()) {
            TxBatches.deleteAll(store.locks(), t, rows);
        }
    }

    /** Rolls back after a failed call; an Ignite transaction error becomes a retryable conflict. */
    private RuntimeException abort(RuntimeException e) {
        if (tx != null) {
            CounterFolds.rollbackQuietly(tx);
        }
        committed = true;
        return Conflicts.isConflict(e) ? Conflicts.retryable() : e;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (tx != null && !committed) {
                CounterFolds.rollbackQuietly(tx);
            }
            releaseQuietly();
        } finally {
            for (int i = lateCount - 1; i >= 0; i--) {
                store.stripes().unlock(lateStripes[i]);
            }
            store.stripes().unlockAll(stripes);
            store.openTransactions().end(ended);
        }
    }

    /**
     * Releases the claims; a failure (a node failing over) is not the client's: the transaction has
     * committed or rolled back already, and the claims expire after {@link Claims#TTL_MILLIS}.
     */
    private void releaseQuietly() {
        try {
            store.claims().release(claimRows);
        } catch (RuntimeException e) {
            if (!Conflicts.isConflict(e)) {
                throw e;
            }
        }
    }
}
