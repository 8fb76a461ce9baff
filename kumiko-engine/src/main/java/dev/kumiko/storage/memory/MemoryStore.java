package dev.kumiko.storage.memory;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreFullException;
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
 *
 * <p>The data is bounded ({@link #dataBytesMax}): a JVM whose heap fills dies of an
 * OutOfMemoryError (the server runs with ExitOnOutOfMemoryError), so the store counts the heap its
 * cells hold (keys, value buffers, and {@link Cell#ENTRY_OVERHEAD_BYTES} per key) in a plain field
 * its writers update under the batch lock, and refuses a batch that would grow that past the budget
 * with {@link StoreFullException}, before any of the batch is applied: a TransactWriteItems, like
 * any write that commits in one batch, is refused whole. Batches that do not grow the data
 * (overwrites in place, deletes, counter additions) always go through, and a batch that deletes
 * stored keys may go a little past the budget ({@link #DELETE_RESERVE_DIVISOR}), since with a
 * stream on, a delete adds its change record.
 */
public final class MemoryStore implements Store {
    /** The share of the heap ({@code Runtime.maxMemory()}) the data may hold unless told otherwise. */
    public static final int HEAP_PERCENT_DEFAULT = 50;
    /**
     * A batch that deletes stored keys may grow the data past the budget, by at most
     * {@link #DELETE_GROWTH_BYTES_MAX} per key deleted and to at most the budget plus budget / this:
     * a delete on a table with a stream writes a change record (the old image, its keys and a few
     * fields) beside freeing the item, a little more than it frees, and deletes must go on working
     * on a full store. A batch that adds items beside deleting one (a transaction) grows by an
     * item's size or more, and is refused like any other write.
     */
    static final int DELETE_RESERVE_DIVISOR = 16;
    /** What a delete's change record adds beyond the item it frees: keys up to 3 KB, escaped, and its fields. */
    static final int DELETE_GROWTH_BYTES_MAX = 8 * 1024;

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
    private final long dataBytesMax;
    /** The heap the cells hold, by their estimate ({@link Cell#heldBytes}); under the batch lock. */
    private long dataBytes;

    /** A store whose data may take {@link #HEAP_PERCENT_DEFAULT} % of the heap. */
    public MemoryStore() {
        this(defaultDataBytesMax());
    }

    /** A store whose data may take dataBytesMax bytes of the heap, by the store's estimate. */
    public MemoryStore(long dataBytesMax) {
        if (dataBytesMax <= 0) {
            throw new IllegalArgumentException("the memory store's budget must be positive: " + dataBytesMax);
        }
        this.dataBytesMax = dataBytesMax;
    }

    /** {@link #HEAP_PERCENT_DEFAULT} % of the most heap this JVM may take. */
    public static long defaultDataBytesMax() {
        return Runtime.getRuntime().maxMemory() / 100 * HEAP_PERCENT_DEFAULT;
    }

    /** The budget of the data, in bytes of heap. */
    public long dataBytesMax() {
        return dataBytesMax;
    }

    /** The heap the data holds now, by the store's estimate. */
    public long dataBytes() {
        batchLock.readLock().lock();
        try {
            return dataBytes;
        } finally {
            batchLock.readLock().unlock();
        }
    }

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
            checkRoom(ops, pointKeys, cells);
            for (int i = 0; i < n; i++) {
                applyOne(ops.get(i), pointKeys[i], cells[i]);
            }
        } finally {
            batchLock.writeLock().unlock();
        }
    }

    /**
     * Throws StoreFullException if the batch would grow the data past the budget; called with the
     * batch lock held, before any op is applied. The first pass is arithmetic on the ops alone: the
     * most the batch could add (every put a new key). Only when that does not fit does the second
     * pass look at the keys' cells for what the batch really adds, so that an overwrite that does
     * not grow, and a delete, still go through on a full store.
     */
    private void checkRoom(List<WriteBatch.Op> ops, PointKey[] points, @Nullable Cell[] found) {
        long addedMax = 0;
        for (WriteBatch.Op op : ops) {
            byte[] value = op.value();
            if (value != null) {
                addedMax += Cell.heldBytesOfNew(op.key().length, value.length);
            }
        }
        if (dataBytes + addedMax <= dataBytesMax) {
            return;
        }
        long added = 0;
        int deleted = 0;
        for (int i = 0; i < ops.size(); i++) {
            WriteBatch.Op op = ops.get(i);
            Cell cell = live(found[i], points[i]);
            byte[] value = op.value();
            if (value == null) {
                added -= cell == null ? 0 : cell.heldBytes();
                deleted += cell == null ? 0 : 1;
            } else {
                int length = op.isAdd() ? Counters.BYTES : value.length;
                added += cell == null
                        ? Cell.heldBytesOfNew(op.key().length, length)
                        : cell.heldBytesAfter(length) - cell.heldBytes();
            }
        }
        boolean deletes = deleted > 0 && added <= (long) deleted * DELETE_GROWTH_BYTES_MAX;
        long max = deletes ? dataBytesMax + dataBytesMax / DELETE_RESERVE_DIVISOR : dataBytesMax;
        if (added > 0 && dataBytes + added > max) {
            throw new StoreFullException("Kumiko's in-memory store is full: its data takes " + mib(dataBytes)
                    + " MiB of heap and may take " + mib(dataBytesMax) + " MiB (by default " + HEAP_PERCENT_DEFAULT
                    + " % of the JVM's maximum heap; kumiko serve --memory-budget-mb sets it). Reads and deletes "
                    + "still work; delete items, or restart the server with a larger budget or heap.");
        }
    }

    private static long mib(long bytes) {
        return bytes >> 20;
    }

    /** The key's live cell: found if it is still live (looked up before the lock), else looked up again. */
    private @Nullable Cell live(@Nullable Cell found, PointKey point) {
        return found != null && found.isLive() ? found : points.get(point);
    }

    /** Called with the batch lock held; found is the key's cell as looked up before (may be stale). */
    private void applyOne(WriteBatch.Op op, PointKey point, @Nullable Cell found) {
        Cell cell = live(found, point);
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
            long before = cell.heldBytes();
            cell.write(value);
            dataBytes += cell.heldBytes() - before;
            return;
        }
        cell = new Cell(key, value);
        tree.put(key.bytes(), cell);
        points.add(cell);
        dataBytes += cell.heldBytes();
    }

    /** Called with the batch lock held; cell: the key's live cell, or null when the key is absent. */
    private void delete(@Nullable Cell cell) {
        if (cell != null) {
            dataBytes -= cell.heldBytes();
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
