package dev.kumiko.engine;

import dev.kumiko.keys.KeySpace;
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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that counts the reads, commits and scanned entries the engine asks of it, over a real
 * store. Reads count alike wherever they are made: on the store, in a transaction or in a snapshot.
 */
public final class CountingStore extends ForwardingStore {
    public final AtomicInteger gets = new AtomicInteger();
    /** Multi-get calls; their keys count in {@link #gets} too. */
    public final AtomicInteger getAlls = new AtomicInteger();
    /** Batches written, by apply or by a transaction's commit (an empty commit writes none). */
    public final AtomicInteger batches = new AtomicInteger();

    public final AtomicInteger entriesScanned = new AtomicInteger();

    /** Null: every thread's calls count. */
    private volatile Thread counted;

    public CountingStore(Store inner) {
        super(inner);
    }

    /**
     * Zeroes the counts and from now on counts only the calling thread's calls: what one in-process
     * request asks, without the background tasks (catalog watch, sweepers) that a slow run lets
     * fall inside the measured span.
     */
    public void resetForThisThread() {
        reset();
        counted = Thread.currentThread();
    }

    public void reset() {
        gets.set(0);
        getAlls.set(0);
        batches.set(0);
        entriesScanned.set(0);
    }

    private boolean counts() {
        Thread t = counted;
        return t == null || t == Thread.currentThread();
    }

    private void countGet(byte[] key) {
        // The catalog watch reads the catalog version in the background; requests never do.
        if (counts() && (key.length == 0 || key[0] != KeySpace.META)) {
            gets.incrementAndGet();
        }
    }

    private void countGetAll(byte[][] keys) {
        if (counts()) {
            getAlls.incrementAndGet();
            gets.addAndGet(keys.length);
        }
    }

    private void countBatch(WriteBatch batch) {
        if (counts() && !batch.isEmpty()) {
            batches.incrementAndGet();
        }
    }

    @Override
    public byte[] get(byte[] key) {
        countGet(key);
        return super.get(key);
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        countGetAll(keys);
        return super.getAll(keys);
    }

    @Override
    public void apply(WriteBatch batch) {
        countBatch(batch);
        super.apply(batch);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        // Whether to count is decided by the thread that opens the scan.
        boolean counting = counts();
        return new ForwardingCursor(super.scan(startInclusive, endExclusive, reverse)) {
            @Override
            public boolean next() {
                boolean more = super.next();
                if (more && counting) {
                    entriesScanned.incrementAndGet();
                }
                return more;
            }
        };
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        return new ForwardingTransaction(super.begin(keys, mode)) {
            @Override
            public byte[] get(byte[] key) {
                countGet(key);
                return super.get(key);
            }

            @Override
            public byte[][] getAll(byte[][] keys) {
                countGetAll(keys);
                return super.getAll(keys);
            }

            @Override
            public void commit(WriteBatch batch) {
                countBatch(batch);
                super.commit(batch);
            }
        };
    }

    @Override
    public Snapshot snapshot() {
        return new ForwardingSnapshot(super.snapshot()) {
            @Override
            public byte[] get(byte[] key) {
                countGet(key);
                return super.get(key);
            }

            @Override
            public byte[][] getAll(byte[][] keys) {
                countGetAll(keys);
                return super.getAll(keys);
            }
        };
    }
}
