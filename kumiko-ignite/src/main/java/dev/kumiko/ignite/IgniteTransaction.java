package dev.kumiko.ignite;

import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * <p>A transaction must hold a key's exclusive lock before it reads it. Two transactions that read
 * one key (a shared lock each) and then both write it would each wait for the other's lock to
 * become exclusive; Ignite 3.1 was seen to leave such a pair waiting past the transaction timeout.
 * Exclusive first, the second simply meets the first's lock, and Ignite makes the younger give way
 * at once (a conflict, which the engine retries). A read takes the lock and the value in one call:
 * {@code getAndUpsert} writes a placeholder over the row and answers the row as it was. No other
 * transaction or reader sees the placeholder (it is never committed): the commit writes the key's
 * new value over it, or its old value back when the batch does not write the key, and a rollback
 * drops it. A key read once is answered from this transaction's memory after that: it is locked,
 * so it cannot change, and the table holds the placeholder. (Earlier versions wrote a row in
 * {@value IgniteSchema#LOCKS} first, a call more per read; the table stays for their rows.)
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
    /** What a key read alone holds until the commit (see the class comment); never committed. */
    private static final byte[] PLACEHOLDER = new byte[0];

    private final IgniteStore store;
    private final CountDownLatch ended;
    private final List<Tuple> claimRows;
    private final int[] stripes;
    /** Stripes of keys first read inside the transaction, taken with a bounded wait. */
    private int[] lateStripes = new int[0];

    private int lateCount;
    /** What each key read held when read (null: absent); locked, so still its committed value. */
    private final Map<BatchWrites.ByteKey, byte @Nullable []> read = new HashMap<>();
    /** Keys holding this transaction's placeholder, which commit must overwrite. */
    private final Set<BatchWrites.ByteKey> placeheld = new HashSet<>();

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

    @Override
    public byte @Nullable [] get(byte[] key) {
        lockLate(key);
        BatchWrites.ByteKey k = new BatchWrites.ByteKey(key);
        if (read.containsKey(k)) {
            return read.get(k);
        }
        try {
            org.apache.ignite.tx.Transaction t = tx();
            byte[] value = Rows.value(store.data().getAndUpsert(t, Rows.row(key, PLACEHOLDER)));
            read.put(k, value);
            placeheld.add(k);
            return value;
        } catch (RuntimeException e) {
            throw abort(e);
        }
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        if (keys.length == 0) {
            return new byte[0][];
        }
        List<byte[]> unread = new ArrayList<>(keys.length);
        for (byte[] key : keys) {
            lockLate(key);
            if (!read.containsKey(new BatchWrites.ByteKey(key))) {
                unread.add(key);
            }
        }
        // One call per key: a multi-partition call inside a transaction is not safe on the 3.1 client
        // (TxBatches), and getAndUpsert locks and reads a key in one call.
        for (byte[] key : unread) {
            get(key);
        }
        byte[][] out = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            out[i] = read.get(new BatchWrites.ByteKey(keys[i]));
        }
        return out;
    }

    @Override
    public void commit(WriteBatch batch) {
        org.apache.ignite.tx.Transaction t = tx();
        BatchWrites writes = BatchWrites.of(batch);
        store.folds().foldBeforeOverwrite(writes);
        for (BatchWrites.ByteKey k : placeheld) {
            writes.keepUnlessWritten(k.bytes(), read.get(k));
        }
        try {
            writes.write(store.data(), t);
            t.commit();
        } catch (RuntimeException e) {
            throw abort(e);
        } finally {
            committed = true;
        }
        store.folds().addAndFoldOthers(writes.deltas());
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
