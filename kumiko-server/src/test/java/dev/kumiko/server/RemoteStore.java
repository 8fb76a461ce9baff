package dev.kumiko.server;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.ForwardingCursor;
import dev.kumiko.storage.ForwardingSnapshot;
import dev.kumiko.storage.ForwardingStore;
import dev.kumiko.storage.ForwardingTransaction;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;

/**
 * A store that says it is remote, as a store reached over the network would: the server must then
 * keep every call to it off its event loops. A call made on an event loop thread fails, also one
 * made in a transaction, a snapshot or a cursor (each would be a round trip), so a test passing over
 * this store shows none was made there.
 */
public final class RemoteStore extends ForwardingStore {
    /** Netty names its NIO event loop threads after the group. */
    private static final String EVENT_LOOP_THREAD_PREFIX = "nioEventLoopGroup";

    public RemoteStore(Store inner) {
        super(inner);
    }

    private static void check() {
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
        return super.get(key);
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        check();
        return super.getAll(keys);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        check();
        return checked(super.scan(startInclusive, endExclusive, reverse));
    }

    @Override
    public void apply(WriteBatch batch) {
        check();
        super.apply(batch);
    }

    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        check();
        super.deleteRange(startInclusive, endExclusive);
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        check();
        return new ForwardingTransaction(super.begin(keys, mode)) {
            @Override
            public byte[] get(byte[] key) {
                check();
                return super.get(key);
            }

            @Override
            public byte[][] getAll(byte[][] keys) {
                check();
                return super.getAll(keys);
            }

            @Override
            public void commit(WriteBatch batch) {
                check();
                super.commit(batch);
            }
        };
    }

    @Override
    public Snapshot snapshot() {
        check();
        return new ForwardingSnapshot(super.snapshot()) {
            @Override
            public byte[] get(byte[] key) {
                check();
                return super.get(key);
            }

            @Override
            public byte[][] getAll(byte[][] keys) {
                check();
                return super.getAll(keys);
            }

            @Override
            public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
                check();
                return checked(super.scan(startInclusive, endExclusive, reverse));
            }
        };
    }

    /** A remote cursor fetches as it goes, so each step is a call. */
    private static Cursor checked(Cursor cursor) {
        return new ForwardingCursor(cursor) {
            @Override
            public boolean next() {
                check();
                return super.next();
            }
        };
    }
}
