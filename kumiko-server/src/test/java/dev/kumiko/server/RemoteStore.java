package dev.kumiko.server;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A memory store that says it is remote, as a store reached over the network would: the server
 * must then keep every call to it off its event loops. A call made on an event loop thread fails,
 * so a test passing over this store shows none was made there.
 */
public final class RemoteStore implements Store {
    /** Netty names its NIO event loop threads after the group. */
    private static final String EVENT_LOOP_THREAD_PREFIX = "nioEventLoopGroup";

    private final Store inner;
    final AtomicLong calls = new AtomicLong();

    public RemoteStore(Store inner) {
        this.inner = inner;
    }

    private void check() {
        calls.incrementAndGet();
        if (Thread.currentThread().getName().startsWith(EVENT_LOOP_THREAD_PREFIX)) {
            throw new IllegalStateException("a remote store was called on an event loop thread");
        }
    }

    @Override
    public boolean local() {
        return false;
    }

    @Override
    public byte[] get(byte[] key) {
        check();
        return inner.get(key);
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        check();
        return inner.getAll(keys);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        check();
        return inner.scan(startInclusive, endExclusive, reverse);
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        check();
        return inner.begin(keys, mode);
    }

    @Override
    public void awaitTransactions() {
        inner.awaitTransactions();
    }

    @Override
    public <T> T shared(Class<T> type, Supplier<T> create) {
        return inner.shared(type, create);
    }

    @Override
    public void apply(WriteBatch batch) {
        check();
        inner.apply(batch);
    }

    @Override
    public boolean snapshotsHoldWriters() {
        return inner.snapshotsHoldWriters();
    }

    @Override
    public Snapshot snapshot() {
        check();
        return inner.snapshot();
    }

    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        check();
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
