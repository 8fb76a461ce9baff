package dev.kumiko.storage;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A store that passes every call to another, for tests: a subclass overrides only what it changes
 * (counts calls, parks a commit, poses as a remote store, outlives an engine). Transactions,
 * snapshots and cursors come back from the inner store as they are; a subclass that must see into
 * them wraps them in {@link ForwardingTransaction}, {@link ForwardingSnapshot} or
 * {@link ForwardingCursor}.
 *
 * <p>Store's default methods are forwarded too, so a wrapper behaves as the store it wraps where that
 * store overrides one (RocksDB's multi-get, the memory store's snapshots that hold writers).
 * {@code ForwardingStoreTest} fails when Store gains a method that is not forwarded.
 */
public class ForwardingStore implements Store {
    private final Store inner;

    public ForwardingStore(Store inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    /** The store every call goes to. */
    protected final Store inner() {
        return inner;
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

    // begin(byte[] key) is left to Store's default, which calls the method below: a subclass that
    // wraps transactions then sees single-item ones too.
    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        return inner.begin(keys, mode);
    }

    @Override
    public void awaitTransactions() {
        inner.awaitTransactions();
    }

    @Override
    public boolean local() {
        return inner.local();
    }

    @Override
    public <T> T shared(Class<T> type, Supplier<T> create) {
        return inner.shared(type, create);
    }

    @Override
    public void apply(WriteBatch batch) {
        inner.apply(batch);
    }

    @Override
    public Snapshot snapshot() {
        return inner.snapshot();
    }

    @Override
    public boolean snapshotsHoldWriters() {
        return inner.snapshotsHoldWriters();
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
        inner.close();
    }
}
