package dev.kumiko.storage.local;

import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Transactions of a store in this process, by key locks ({@link KeyLocks}): a transaction locks
 * what it reads, so its commit can never meet a concurrent change and commits with the store's
 * plain atomic {@link Store#apply}. Pessimistic, because on one machine waiting on a lock is
 * cheaper than redoing work; the cost of a single-item write is one stripe lock, as before the
 * store owned isolation.
 */
public final class LocalTransactions {
    private final Store store;
    private final KeyLocks locks = new KeyLocks();

    /** store: where reads and commits go (the store that owns this instance). */
    public LocalTransactions(Store store) {
        this.store = store;
    }

    public Transaction begin(byte[][] keys, TransactionMode mode) {
        Object owner = null;
        if (mode == TransactionMode.CLAIM) {
            owner = new Object();
            locks.claim(keys, owner);
        } else {
            locks.checkUnclaimed(keys, null);
        }
        try {
            return new Local(keys, owner, locks.lockAll(keys));
        } catch (RuntimeException | Error e) {
            if (owner != null) {
                locks.release(keys, owner);
            }
            throw e;
        }
    }

    public void awaitTransactions() {
        locks.barrier();
    }

    private final class Local implements Transaction {
        private final byte[][] keys;
        private final @Nullable Object owner;
        private final int[] stripes;
        private int[] lateStripes = new int[0];
        private boolean committed;
        private boolean closed;

        Local(byte[][] keys, @Nullable Object owner, int[] stripes) {
            this.keys = keys;
            this.owner = owner;
            this.stripes = stripes;
        }

        @Override
        public byte @Nullable [] get(byte[] key) {
            checkOpen();
            protect(key);
            return store.get(key);
        }

        @Override
        public byte[][] getAll(byte[][] readKeys) {
            checkOpen();
            for (byte[] key : readKeys) {
                protect(key);
            }
            return store.getAll(readKeys);
        }

        /** A key named at begin is locked already (the common case, found by identity). */
        private void protect(byte[] key) {
            for (byte[] k : keys) {
                if (k == key) {
                    return;
                }
            }
            int stripe = KeyLocks.stripeOf(key);
            if (Arrays.binarySearch(stripes, stripe) >= 0) {
                return;
            }
            locks.checkUnclaimed(new byte[][] {key}, owner);
            if (locks.lockLate(stripe)) {
                lateStripes = Arrays.copyOf(lateStripes, lateStripes.length + 1);
                lateStripes[lateStripes.length - 1] = stripe;
            }
        }

        @Override
        public void commit(WriteBatch batch) {
            checkOpen();
            if (committed) {
                throw new IllegalStateException("transaction already committed");
            }
            committed = true;
            if (!batch.isEmpty()) {
                store.apply(batch);
            }
        }

        private void checkOpen() {
            if (closed) {
                throw new IllegalStateException("transaction is closed");
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            for (int i = lateStripes.length - 1; i >= 0; i--) {
                locks.unlock(lateStripes[i]);
            }
            for (int i = stripes.length - 1; i >= 0; i--) {
                locks.unlock(stripes[i]);
            }
            if (owner != null) {
                locks.release(keys, owner);
            }
        }
    }
}
