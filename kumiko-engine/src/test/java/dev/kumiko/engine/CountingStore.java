package dev.kumiko.engine;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.concurrent.atomic.AtomicInteger;

/** A store that counts the calls and entries the engine asks of it, over a real store. */
public final class CountingStore implements Store {
    private final Store inner;
    public final AtomicInteger gets = new AtomicInteger();
    /** Multi-get calls; their keys count in {@link #gets} too. */
    public final AtomicInteger getAlls = new AtomicInteger();
    public final AtomicInteger batches = new AtomicInteger();
    public final AtomicInteger entriesScanned = new AtomicInteger();

    public CountingStore(Store inner) {
        this.inner = inner;
    }

    /** Null: every thread's calls count. */
    private volatile Thread counted;

    /**
     * Zeroes the counts and from now on counts only the calling thread's calls: what one in-process
     * request asks, without the background tasks (catalog watch, sweepers) that a slow run lets
     * fall inside the measured span.
     */
    public void resetForThisThread() {
        reset();
        counted = Thread.currentThread();
    }

    private boolean counts() {
        Thread t = counted;
        return t == null || t == Thread.currentThread();
    }

    public void reset() {
        gets.set(0);
        getAlls.set(0);
        batches.set(0);
        entriesScanned.set(0);
    }

    @Override
    public byte[] get(byte[] key) {
        // The catalog watch reads the catalog version in the background; requests never do.
        if (counts() && (key.length == 0 || key[0] != dev.kumiko.keys.KeySpace.META)) {
            gets.incrementAndGet();
        }
        return inner.get(key);
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        if (counts()) {
            getAlls.incrementAndGet();
            gets.addAndGet(keys.length);
        }
        return inner.getAll(keys);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        Cursor c = inner.scan(startInclusive, endExclusive, reverse);
        boolean counting = counts();
        return new Cursor() {
            @Override
            public boolean next() {
                boolean more = c.next();
                if (more && counting) {
                    entriesScanned.incrementAndGet();
                }
                return more;
            }

            @Override
            public byte[] key() {
                return c.key();
            }

            @Override
            public byte[] value() {
                return c.value();
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    @Override
    public void apply(WriteBatch batch) {
        if (counts()) {
            batches.incrementAndGet();
        }
        inner.apply(batch);
    }

    private final dev.kumiko.storage.local.LocalTransactions transactions =
            new dev.kumiko.storage.local.LocalTransactions(this);

    @Override
    public dev.kumiko.storage.Transaction begin(byte[][] keys, dev.kumiko.storage.TransactionMode mode) {
        return transactions.begin(keys, mode);
    }

    @Override
    public <T> T shared(Class<T> type, java.util.function.Supplier<T> create) {
        return inner.shared(type, create);
    }

    @Override
    public void awaitTransactions() {
        transactions.awaitTransactions();
    }

    /** As the store it wraps: a backup's copy reads a memory store's snapshot out before it writes. */
    @Override
    public boolean snapshotsHoldWriters() {
        return inner.snapshotsHoldWriters();
    }

    @Override
    public Snapshot snapshot() {
        Snapshot s = inner.snapshot();
        return new Snapshot() {
            @Override
            public byte[] get(byte[] key) {
                gets.incrementAndGet();
                return s.get(key);
            }

            @Override
            public byte[][] getAll(byte[][] keys) {
                getAlls.incrementAndGet();
                gets.addAndGet(keys.length);
                return s.getAll(keys);
            }

            @Override
            public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
                return s.scan(startInclusive, endExclusive, reverse);
            }

            @Override
            public void close() {
                s.close();
            }
        };
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
