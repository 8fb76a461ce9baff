package dev.kumiko.engine;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;

/**
 * One engine's handle on a store that several engines share: every call goes to the shared store,
 * except close, which an engine makes when it closes and which must not close the store under the
 * other engines. The test closes the store itself.
 */
public final class SharedStore implements Store {
    private final Store inner;
    private final boolean local;

    public SharedStore(Store inner) {
        this(inner, true);
    }

    /**
     * local false makes the handle act as a store shared by processes: it says it is not local and
     * keeps no process memory ({@link Store#shared} throws), so the engines over it can share
     * nothing but store data.
     */
    public SharedStore(Store inner, boolean local) {
        this.inner = inner;
        this.local = local;
    }

    @Override
    public byte[] get(byte[] key) {
        return inner.get(key);
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        return inner.getAll(keys);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        return inner.scan(startInclusive, endExclusive, reverse);
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        return inner.begin(keys, mode);
    }

    @Override
    public void awaitTransactions() {
        inner.awaitTransactions();
    }

    @Override
    public <T> T shared(Class<T> type, java.util.function.Supplier<T> create) {
        if (!local) {
            throw new UnsupportedOperationException("a store shared by processes keeps no process memory");
        }
        return inner.shared(type, create);
    }

    @Override
    public boolean local() {
        return local && inner.local();
    }

    @Override
    public void apply(WriteBatch batch) {
        inner.apply(batch);
    }

    /** As the store it wraps: a backup's copy reads a memory store's snapshot out before it writes. */
    @Override
    public boolean snapshotsHoldWriters() {
        return inner.snapshotsHoldWriters();
    }

    @Override
    public Snapshot snapshot() {
        return inner.snapshot();
    }

    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        inner.deleteRange(startInclusive, endExclusive);
    }

    @Override
    public void sync() {
        inner.sync();
    }

    @Override
    public void close() {
        // The store outlives each engine; its owner closes it.
    }
}
