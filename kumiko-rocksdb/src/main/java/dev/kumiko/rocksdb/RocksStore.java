package dev.kumiko.rocksdb;

import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import dev.kumiko.storage.local.LocalTransactions;
import dev.kumiko.storage.local.ProcessShared;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.BuiltinComparator;
import org.rocksdb.CompressionType;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteOptions;

/**
 * The on-disk store: one RocksDB database in one directory, default column family only.
 *
 * <p>Every write goes to the write-ahead log before {@link #apply} returns, so an acknowledged
 * batch survives the process being killed; with {@link RocksStoreOptions#fsync()} it also
 * survives the machine losing power. RocksDB's default comparator is bytewise unsigned, which is
 * exactly {@link Bytes#ORDER}.
 *
 * <p>Group commit: with fsync, concurrent {@link #apply} calls share WAL fsyncs. RocksDB queues
 * writers that arrive while a write is in progress; the next leader appends the whole queue to
 * the WAL, fsyncs once, and releases every writer of its group after that fsync (and only then
 * inserts into the memtables, so a reader never sees a write that is not yet durable). The queue
 * holds at most one write per writing thread. {@link #walCounters} shows the grouping: 32
 * writers averaged 13.7 writes per fsync (docs/durability.md). A hand-made syncer thread
 * (apply without sync, then one syncWal for all waiters) measured slower and would let readers
 * see writes before their fsync, so the store relies on RocksDB's write groups.
 *
 * <p>Read-modify-write transactions lock keys in this process ({@link LocalTransactions}): RocksDB
 * allows one process per directory, so every engine over this store shares the locks, and a
 * transaction's commit is one plain atomic write. An OptimisticTransactionDB would validate
 * instead, at the cost of tracking every read; with the locks held no commit can meet a change.
 *
 * <p>Thread-safe. Cursors and snapshots are used by one thread at a time; ones still open when
 * the store closes are closed with it, and later use of them throws instead of crashing the JVM.
 * A range read borrows its thread's kept iterator ({@link IteratorCache}) when it is free.
 */
public final class RocksStore implements Store {
    /** Bloom filter bits per key: about a 1% false-positive rate, so most misses skip the disk. */
    static final double BLOOM_BITS_PER_KEY = 10;
    /** RocksDB's own info LOG files, which otherwise grow without bound. */
    static final long INFO_LOG_SIZE_BYTES_MAX = 16L << 20;

    static final long INFO_LOG_FILES_MAX = 4;
    /** Size of one piece of a partitioned index or filter, the unit the block cache holds. */
    static final long METADATA_BLOCK_BYTES = 4096;
    /** Uncompressed size of a table file's data block, the unit a read fetches and caches. */
    static final long DATA_BLOCK_BYTES = 16 * 1024;
    /** Share of a memtable's size given to its whole-key bloom filter. */
    static final double MEMTABLE_BLOOM_SIZE_RATIO = 0.02;

    static {
        NativeLibrary.load();
    }

    private final Path dir;
    private final NativeGuard guard = new NativeGuard();
    // Native handles, closed in reverse order of creation after the database.
    private final Deque<AutoCloseable> handles;
    private final RocksDB db;
    private final WriteOptions writeOptions;
    private final ReadOptions readOptions;
    private final LocalTransactions transactions = new LocalTransactions(this);
    private final ProcessShared shared = new ProcessShared();
    // Null when RocksStoreOptions.pointCacheSizeBytes is 0.
    private final @Nullable PointCache cache;
    // Null when RocksStoreOptions.idleCompactionBytesMax is 0.
    private final @Nullable IdleCompaction idle;
    private final IteratorCache iterators;

    private RocksStore(
            Path dir,
            Deque<AutoCloseable> handles,
            RocksDB db,
            WriteOptions writeOptions,
            @Nullable PointCache cache,
            long idleCompactionBytesMax) {
        this.dir = dir;
        this.handles = handles;
        this.db = db;
        this.writeOptions = writeOptions;
        this.cache = cache;
        this.readOptions = new ReadOptions();
        handles.push(readOptions);
        this.idle = idleCompactionBytesMax == 0 ? null : new IdleCompaction(db, guard, idleCompactionBytesMax);
        this.iterators = new IteratorCache(db, guard);
    }

    /** Opens the database in dir, creating the directory and database if missing. */
    public static RocksStore open(Path dir, RocksStoreOptions storeOptions) {
        Deque<AutoCloseable> handles = new ArrayDeque<>();
        try {
            Files.createDirectories(dir);
            Options options = options(storeOptions, handles);
            WriteOptions writeOptions =
                    new WriteOptions().setSync(storeOptions.fsync()).setDisableWAL(false);
            handles.push(writeOptions);
            RocksDB db = RocksDB.open(options, dir.toString());
            PointCache cache =
                    storeOptions.pointCacheSizeBytes() == 0 ? null : new PointCache(storeOptions.pointCacheSizeBytes());
            return new RocksStore(dir, handles, db, writeOptions, cache, storeOptions.idleCompactionBytesMax());
        } catch (RocksDBException | java.io.IOException | RuntimeException e) {
            closeAll(handles);
            throw new IllegalStateException("cannot open RocksDB store in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Options options(RocksStoreOptions storeOptions, Deque<AutoCloseable> handles) {
        LRUCache blockCache = new LRUCache(storeOptions.blockCacheSizeBytes());
        handles.push(blockCache);
        BloomFilter bloom = new BloomFilter(BLOOM_BITS_PER_KEY);
        handles.push(bloom);
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(blockCache)
                .setFilterPolicy(bloom)
                // Index and filter blocks live in the block cache, so its size bounds them too.
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                // A table file's index and filter are split into metadata-block-sized pieces under a
                // small top level. Whole, a 64 MB file's index block (~1.4 MB) is bigger than one
                // shard of the block cache, so it never stayed cached and every GetItem past the
                // memtable re-read and decompressed it (bench/scale/scale.sh: 5k gets/s at 1M items).
                // Pieces fit the cache, so memory stays bounded by its size whatever the data size.
                .setIndexType(IndexType.kTwoLevelIndexSearch)
                .setPartitionFilters(true)
                .setMetadataBlockSize(METADATA_BLOCK_BYTES)
                .setPinTopLevelIndexAndFilter(true)
                // A Query page of 50 items (about 15 KB) spans one or two 16 KB data blocks instead
                // of four or five 4 KB ones: fewer block-cache lookups (each under its shard's
                // mutex) and index steps per page.
                .setBlockSize(DATA_BLOCK_BYTES);
        // Counters (WriteBatch.add) are merge operands that RocksDB sums when read or compacted.
        UInt64AddOperator counters = new UInt64AddOperator();
        handles.push(counters);
        Options options = new Options()
                .setCreateIfMissing(true)
                .setMergeOperator(counters)
                .setComparator(BuiltinComparator.BYTEWISE_COMPARATOR)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(storeOptions.writeBufferSizeBytes())
                // Writers of a group leave the WAL append to the next group while they insert into
                // the memtable, so the WAL and the memtable work of concurrent writes overlap
                // (group commit in every durability mode; RocksDB groups writers that queue).
                .setEnablePipelinedWrite(true)
                // Without fsync, a writer waiting for its group blocks instead of calling sched_yield
                // in a loop for up to 100 µs: with an event loop per core, the yielding took the CPU
                // the other loop's request needed (6 % of a put's samples; without it put and mixed
                // ran 9-11 % faster at 8-26 % less server CPU per request). With fsync the yielding
                // stays: blocked writers measured slower there with 4 event loops (put 0.7-1.1 of
                // yielding, 4 pairs) and the same with the 16 that fsync mode runs now (3 rounds of
                // compare-jars: put 0.86-1.05, update 0.98-1.02, get 0.91-1.05).
                .setEnableWriteThreadAdaptiveYield(storeOptions.fsync())
                // Every write reads its item first; the harness's workloads overwrite items, so
                // most reads end in the memtable, and a key's bloom bit there skips its skip-list
                // search on a miss (2 % of the memtable's size).
                .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_SIZE_RATIO)
                .setMemtableWholeKeyFiltering(true)
                .setTableFormatConfig(table)
                // A torn last record (process killed mid-write) is dropped; earlier ones replay.
                .setWalRecoveryMode(WALRecoveryMode.PointInTimeRecovery)
                .setMaxLogFileSize(INFO_LOG_SIZE_BYTES_MAX)
                .setKeepLogFileNum(INFO_LOG_FILES_MAX);
        handles.push(options);
        return options;
    }

    public Path dir() {
        return dir;
    }

    /** From the point cache when it holds key; otherwise from RocksDB, and then held. */
    @Override
    public byte @Nullable [] get(byte[] key) {
        if (cache == null) {
            return read(key);
        }
        guard.checkOpen();
        Object found = cache.lookup(key);
        if (!(found instanceof PointCache.Fill miss)) {
            return found == PointCache.ABSENT ? null : (byte[]) found;
        }
        try {
            byte[] value = read(key);
            cache.fill(miss, value);
            return value;
        } finally {
            cache.done(miss);
        }
    }

    private byte @Nullable [] read(byte[] key) {
        guard.enter();
        try {
            return db.get(readOptions, key);
        } catch (RocksDBException e) {
            throw new RocksStoreException("get", e);
        } finally {
            guard.exit();
        }
    }

    /** The point cache's hits, and the misses from RocksDB with one MultiGet, which are then held. */
    @Override
    public byte[][] getAll(byte[][] keys) {
        if (cache == null) {
            return readAll(keys);
        }
        guard.checkOpen();
        byte[][] values = new byte[keys.length][];
        PointCache.Fill[] misses = new PointCache.Fill[keys.length];
        int missCount = 0;
        try {
            for (int i = 0; i < keys.length; i++) {
                Object found = cache.lookup(keys[i]);
                if (found instanceof PointCache.Fill miss) {
                    misses[i] = miss;
                    missCount++;
                } else {
                    values[i] = found == PointCache.ABSENT ? null : (byte[]) found;
                }
            }
            if (missCount > 0) {
                readMisses(cache, keys, misses, missCount, values);
            }
            return values;
        } finally {
            for (PointCache.Fill miss : misses) {
                if (miss != null) {
                    cache.done(miss);
                }
            }
        }
    }

    private void readMisses(
            PointCache points, byte[][] keys, PointCache.Fill[] misses, int missCount, byte[][] values) {
        byte[][] missed = new byte[missCount][];
        int m = 0;
        for (int i = 0; i < keys.length; i++) {
            if (misses[i] != null) {
                missed[m++] = keys[i];
            }
        }
        byte[][] read = readAll(missed);
        m = 0;
        for (int i = 0; i < keys.length; i++) {
            if (misses[i] != null) {
                values[i] = read[m++];
                points.fill(misses[i], values[i]);
            }
        }
    }

    /** RocksDB's MultiGet: one call, the keys' blocks looked up together. */
    private byte[][] readAll(byte[][] keys) {
        if (keys.length == 0) {
            return new byte[0][]; // RocksJava's multiGet asserts a non-empty key list
        }
        guard.enter();
        try {
            List<byte[]> values = db.multiGetAsList(readOptions, Arrays.asList(keys));
            return values.toArray(new byte[0][]);
        } catch (RocksDBException e) {
            throw new RocksStoreException("multiGet", e);
        } finally {
            guard.exit();
        }
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
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

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        guard.enter();
        try {
            if (isEmptyRange(startInclusive, endExclusive)) {
                return RocksCursor.EMPTY;
            }
            IteratorCache.Kept lent = iterators.lend(startInclusive, endExclusive, reverse);
            RocksCursor cursor = lent != null
                    ? new RocksCursor(guard, iterators, lent, reverse)
                    : new RocksCursor(db, guard, null, startInclusive, endExclusive, reverse);
            guard.register(cursor);
            return cursor;
        } finally {
            guard.exit();
        }
    }

    @Override
    public void apply(WriteBatch batch) {
        guard.enter();
        try {
            if (!batch.isEmpty()) {
                if (cache == null) {
                    write(batch);
                } else {
                    writeThroughCache(cache, batch);
                }
            }
        } catch (RocksDBException e) {
            throw new RocksStoreException("write", e);
        } finally {
            guard.exit();
        }
    }

    /** Writes batch, marking its keys in the point cache before and giving them their new values after. */
    private void writeThroughCache(PointCache points, WriteBatch batch) throws RocksDBException {
        List<WriteBatch.Op> ops = batch.ops();
        long[] marks = new long[ops.size()];
        int marked = 0;
        boolean written = false;
        try {
            for (; marked < marks.length; marked++) {
                marks[marked] = points.beforeWrite(ops.get(marked).key());
            }
            write(batch);
            written = true;
        } finally {
            for (int i = 0; i < marked; i++) {
                WriteBatch.Op op = ops.get(i);
                points.afterWrite(op.key(), marks[i], op.value(), !op.isAdd(), written);
            }
        }
    }

    /**
     * One RocksDB write batch: atomic in the WAL and the memtable, so readers see all or none. It is
     * built in Java ({@link SerializedBatch}) and crosses JNI once, not once per key.
     */
    private void write(WriteBatch batch) throws RocksDBException {
        try (org.rocksdb.WriteBatch rocksBatch = new org.rocksdb.WriteBatch(SerializedBatch.of(batch))) {
            db.write(writeOptions, rocksBatch);
        }
    }

    @Override
    public Snapshot snapshot() {
        guard.enter();
        try {
            RocksSnapshot snapshot = new RocksSnapshot(db, guard);
            guard.register(snapshot);
            return snapshot;
        } finally {
            guard.exit();
        }
    }

    /** One range tombstone: cheap to write whatever the range holds; compaction reclaims space. */
    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        guard.enter();
        try {
            if (!isEmptyRange(startInclusive, endExclusive)) {
                if (cache == null) {
                    db.deleteRange(writeOptions, startInclusive, endExclusive);
                } else {
                    cache.beforeRangeDelete(startInclusive, endExclusive);
                    try {
                        db.deleteRange(writeOptions, startInclusive, endExclusive);
                    } finally {
                        cache.afterRangeDelete();
                    }
                }
            }
        } catch (RocksDBException e) {
            throw new RocksStoreException("deleteRange", e);
        } finally {
            guard.exit();
        }
    }

    @Override
    public void sync() {
        guard.enter();
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            throw new RocksStoreException("syncWal", e);
        } finally {
            guard.exit();
        }
    }

    /**
     * Writes that went to the WAL and fsyncs of it since the store opened. With fsync on, a lone
     * writer costs one sync per write; concurrent writers share them (group commit).
     */
    public record WalCounters(long writes, long syncs) {}

    public WalCounters walCounters() {
        guard.enter();
        try {
            // RocksDB's own DB statistics, kept whether or not Options.statistics is set (it is not:
            // that costs on every write).
            Map<String, String> stats = db.getMapProperty("rocksdb.dbstats");
            return new WalCounters(
                    Long.parseLong(stats.get("db.user_writes_with_wal")), Long.parseLong(stats.get("db.wal_syncs")));
        } catch (RocksDBException e) {
            throw new RocksStoreException("dbstats", e);
        } finally {
            guard.exit();
        }
    }

    /** The per-thread iterators that range reads borrow, for tests. */
    IteratorCache iterators() {
        return iterators;
    }

    /** Settled quiet intervals so far ({@link IdleCompaction}); -1 when it is off. */
    long idleSettledCount() {
        return idle == null ? -1 : idle.settledCount();
    }

    /** One of RocksDB's integer properties, such as {@code rocksdb.num-entries-active-mem-table}. */
    long longProperty(String name) {
        guard.enter();
        try {
            return db.getLongProperty(name);
        } catch (RocksDBException e) {
            throw new RocksStoreException("property " + name, e);
        } finally {
            guard.exit();
        }
    }

    /** How many table files level 0 holds. */
    long levelZeroFiles() {
        guard.enter();
        try {
            return IdleCompaction.levelZeroFiles(db);
        } catch (RocksDBException e) {
            throw new RocksStoreException("level-0 file count", e);
        } finally {
            guard.exit();
        }
    }

    /**
     * Stops the idle compaction (cancelling one in progress), waits for calls in flight, closes
     * cursors and snapshots left open, then the database.
     */
    @Override
    public void close() {
        if (idle != null) {
            idle.close();
        }
        guard.close(this::closeNative);
    }

    private void closeNative() {
        try {
            iterators.close();
            // A clean stop leaves nothing for the machine to lose: under --durability process the log
            // is never synced while serving, and a power cut after a stop lost a table created before it
            // (scripts/smoke-powercut.sh's file system, which drops what was not fsynced).
            db.syncWal();
            db.closeE();
        } catch (RocksDBException e) {
            throw new RocksStoreException("close", e);
        } finally {
            closeAll(handles);
        }
    }

    private static void closeAll(Deque<AutoCloseable> handles) {
        while (!handles.isEmpty()) {
            try {
                handles.pop().close();
            } catch (Exception e) {
                throw new IllegalStateException("closing a RocksDB handle failed", e);
            }
        }
    }

    /** True for start == end; a start after the end is a caller's bug, not an empty range. */
    static boolean isEmptyRange(byte[] startInclusive, byte[] endExclusive) {
        int order = Bytes.ORDER.compare(startInclusive, endExclusive);
        if (order > 0) {
            throw new IllegalArgumentException("range start is after its end");
        }
        return order == 0;
    }
}
