package dev.kumiko.storage.memory;

import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The pure-Java store: a concurrent skip list for ordered scans, and a hash map over the same
 * entries for point reads (a GetItem, and the read before every write), which a skip list of a
 * few hundred thousand keys answers several times slower. Batches are applied under a write lock so that a
 * {@link Snapshot} (which holds the read lock for its lifetime) never sees half a batch; plain
 * reads take no lock and are read-committed per key, which is all DynamoDB promises for them.
 * Snapshots are meant to be short-lived (one TransactGetItems, one backup copy).
 */
public final class MemoryStore implements Store {
    private final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(Bytes.ORDER);
    // Writers update `map` first and `points` second, so a reader that sees a value in `points`
    // finds it (or a newer one) in `map` too: a Get then a Query never goes back in time.
    private final ConcurrentHashMap<PointKey, byte[]> points = new ConcurrentHashMap<>();
    private final ReentrantReadWriteLock batchLock = new ReentrantReadWriteLock();
    private volatile boolean closed;

    @Override
    public byte[] get(byte[] key) {
        checkOpen();
        return points.get(new PointKey(key));
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        checkOpen();
        return new MapCursor(range(startInclusive, endExclusive, reverse));
    }

    private NavigableMap<byte[], byte[]> range(byte[] start, byte[] end, boolean reverse) {
        NavigableMap<byte[], byte[]> sub = map.subMap(start, true, end, false);
        return reverse ? sub.descendingMap() : sub;
    }

    @Override
    public void apply(WriteBatch batch) {
        checkOpen();
        if (batch.size() == 1) {
            applyOne(batch.ops().get(0));
            return;
        }
        batchLock.writeLock().lock();
        try {
            for (WriteBatch.Op op : batch.ops()) {
                applyOne(op);
            }
        } finally {
            batchLock.writeLock().unlock();
        }
    }

    /** A single-key write is atomic on its own, but still must not tear a snapshot's view. */
    private void applyOne(WriteBatch.Op op) {
        boolean locked = !batchLock.isWriteLockedByCurrentThread();
        if (locked) {
            batchLock.writeLock().lock();
        }
        try {
            if (op.isDelete()) {
                map.remove(op.key());
                points.remove(new PointKey(op.key()));
            } else {
                map.put(op.key(), op.value());
                points.put(new PointKey(op.key()), op.value());
            }
        } finally {
            if (locked) {
                batchLock.writeLock().unlock();
            }
        }
    }

    @Override
    public Snapshot snapshot() {
        checkOpen();
        batchLock.readLock().lock();
        return new Snapshot() {
            private boolean released;

            @Override
            public byte[] get(byte[] key) {
                return points.get(new PointKey(key));
            }

            @Override
            public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
                return new MapCursor(range(startInclusive, endExclusive, reverse));
            }

            @Override
            public void close() {
                if (!released) {
                    released = true;
                    batchLock.readLock().unlock();
                }
            }
        };
    }

    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        checkOpen();
        batchLock.writeLock().lock();
        try {
            NavigableMap<byte[], byte[]> range = map.subMap(startInclusive, true, endExclusive, false);
            List<byte[]> keys = new ArrayList<>(range.keySet());
            range.clear();
            for (byte[] key : keys) {
                points.remove(new PointKey(key));
            }
        } finally {
            batchLock.writeLock().unlock();
        }
    }

    @Override
    public void sync() {
        // Nothing to make durable: the memory store's contract is the process lifetime.
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
    }

    private static final class MapCursor implements Cursor {
        private final Iterator<Map.Entry<byte[], byte[]>> it;
        private Map.Entry<byte[], byte[]> current;

        MapCursor(NavigableMap<byte[], byte[]> range) {
            this.it = range.entrySet().iterator();
        }

        @Override
        public boolean next() {
            if (!it.hasNext()) {
                current = null;
                return false;
            }
            current = it.next();
            return true;
        }

        @Override
        public byte[] key() {
            return current.getKey();
        }

        @Override
        public byte[] value() {
            return current.getValue();
        }

        @Override
        public void close() {
            current = null;
        }
    }
}
