package dev.kumiko.storage.memory;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import dev.kumiko.storage.local.LocalTransactions;
import dev.kumiko.storage.local.ProcessShared;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * The pure-Java store: a B+tree of cells for ordered scans ({@link CellTree}), and a hash table over
 * the same cells for point reads ({@link PointTable}: a GetItem, and the read before every write),
 * which a tree of a few hundred thousand keys answers several times slower. Both hold one mutable
 * {@link Cell} per key, so overwriting an existing key (a PutItem over an item, an UpdateItem, an
 * index entry rewritten under the same key) is a hash lookup and a copy into the cell's buffer,
 * which makes no new object for the garbage collector to trace ({@link Cell}); only a new or
 * deleted key pays for the tree. Batches are applied under a write lock so that a
 * {@link Snapshot} (which holds the read lock for its lifetime) never sees half a batch; plain
 * reads take no lock and are read-committed per key, which is all DynamoDB promises for them.
 * Snapshots are meant to be short-lived (one TransactGetItems, one backup copy). Read-modify-write
 * transactions lock keys ({@link LocalTransactions}) and commit with {@link #apply}.
 */
public final class MemoryStore implements Store {
    private final CellTree tree = new CellTree();
    // Writers add a new key to `tree` first and `points` second, and remove a key from `tree` first,
    // so a reader that finds a key in `points` finds it in `tree` too: a Get then a Query never goes
    // back in time. A removed cell is marked deleted first, so a cursor that holds it skips it.
    // A lookup's probe is a PointKey: the key bytes and their hash.
    private final PointTable points = new PointTable();
    private final ReentrantReadWriteLock batchLock = new ReentrantReadWriteLock();
    private final LocalTransactions transactions = new LocalTransactions(this);
    private final ProcessShared shared = new ProcessShared();
    private volatile boolean closed;

    @Override
    public byte @Nullable [] get(byte[] key) {
        checkOpen();
        return valueOf(points.get(new PointKey(key)));
    }

    /** The keys' slots are all loaded before any is compared (PointTable.getAll): their misses overlap. */
    @Override
    public byte[][] getAll(byte[][] keys) {
        checkOpen();
        Cell[] cells = new Cell[keys.length];
        points.getAll(probes(keys), cells);
        byte[][] values = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            values[i] = valueOf(cells[i]);
        }
        return values;
    }

    private static PointKey[] probes(byte[][] keys) {
        PointKey[] probes = new PointKey[keys.length];
        for (int i = 0; i < keys.length; i++) {
            probes[i] = new PointKey(keys[i]);
        }
        return probes;
    }

    private static byte @Nullable [] valueOf(@Nullable Cell cell) {
        return cell == null ? null : cell.read();
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        checkOpen();
        return new TreeCursor(tree.walk(startInclusive, endExclusive, reverse));
    }

    /**
     * The keys' cells are looked up before the batch lock is taken, so that what the lock covers is
     * one copy per existing key: writers on every event loop take it, and a longer hold
     * turned into lock hand-offs (parking, futex calls) once the counters joined each batch. A cell
     * found outside the lock is used only if it is still live under it (a delete marks it
     * under the lock); otherwise the key is looked up again inside.
     */
    @Override
    public void apply(WriteBatch batch) {
        checkOpen();
        List<WriteBatch.Op> ops = batch.ops();
        int n = ops.size();
        PointKey[] pointKeys = new PointKey[n];
        Cell[] cells = new Cell[n];
        for (int i = 0; i < n; i++) {
            pointKeys[i] = new PointKey(ops.get(i).key());
        }
        points.getAll(pointKeys, cells);
        batchLock.writeLock().lock();
        try {
            for (int i = 0; i < n; i++) {
                applyOne(ops.get(i), pointKeys[i], cells[i]);
            }
        } finally {
            batchLock.writeLock().unlock();
        }
    }

    /** Called with the batch lock held; found is the key's cell as looked up before (may be stale). */
    private void applyOne(WriteBatch.Op op, PointKey point, @Nullable Cell found) {
        Cell cell = found != null && found.isLive() ? found : points.get(point);
        byte[] value = op.value();
        if (op.isAdd()) {
            long delta = Counters.decode(value);
            put(point, cell, Counters.encode(Counters.decode(valueOf(cell)) + delta));
        } else if (value == null) {
            delete(cell);
        } else {
            put(point, cell, value);
        }
    }

    /** Called with the batch lock held: writers are serialized, readers are not. cell: the key's, or null. */
    private void put(PointKey key, @Nullable Cell cell, byte[] value) {
        assert value != null;
        if (cell != null) {
            cell.write(value);
            return;
        }
        cell = new Cell(key, value);
        tree.put(key.bytes(), cell);
        points.add(cell);
    }

    /** Called with the batch lock held; cell: the key's live cell, or null when the key is absent. */
    private void delete(@Nullable Cell cell) {
        if (cell != null) {
            tree.remove(cell.key());
            cell.delete();
            points.remove(cell);
        }
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        checkOpen();
        return transactions.begin(keys, mode);
    }

    @Override
    public void awaitTransactions() {
        transactions.awaitTransactions();
    }

    @Override
    public <T> T shared(Class<T> type, java.util.function.Supplier<T> create) {
        return shared.get(type, create);
    }

    /** A snapshot holds the batch lock's read side: writers wait until it is closed. */
    @Override
    public boolean snapshotsHoldWriters() {
        return true;
    }

    @Override
    public Snapshot snapshot() {
        checkOpen();
        batchLock.readLock().lock();
        return new Snapshot() {
            private boolean released;

            @Override
            public byte @Nullable [] get(byte[] key) {
                return valueOf(points.get(new PointKey(key)));
            }

            @Override
            public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
                return new TreeCursor(tree.walk(startInclusive, endExclusive, reverse));
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
            // The walk reads the tree's version of now, which the deletes below replace, not change.
            CellTree.Walk walk = tree.walk(startInclusive, endExclusive, false);
            for (Cell cell = walk.next(); cell != null; cell = walk.next()) {
                delete(cell);
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

    /** Walks the range's cells, each of which holds its own key, skipping those deleted since the walk began. */
    private static final class TreeCursor implements Cursor {
        private final CellTree.Walk walk;
        // Null before the first next() and after the last: dropped so a finished cursor holds no item.
        private byte @Nullable [] key;
        private byte @Nullable [] value;

        TreeCursor(CellTree.Walk walk) {
            this.walk = walk;
        }

        @Override
        public boolean next() {
            for (Cell cell = walk.next(); cell != null; cell = walk.next()) {
                byte[] v = cell.read();
                if (v != null) {
                    key = cell.key();
                    value = v;
                    return true;
                }
            }
            key = null;
            value = null;
            return false;
        }

        @Override
        public byte[] key() {
            return Objects.requireNonNull(key, "key() without a current entry");
        }

        @Override
        public byte[] value() {
            return Objects.requireNonNull(value, "value() without a current entry");
        }

        @Override
        public void close() {
            key = null;
            value = null;
        }
    }
}
