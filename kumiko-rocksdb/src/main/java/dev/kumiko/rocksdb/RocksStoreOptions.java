package dev.kumiko.rocksdb;

/**
 * How a {@link RocksStore} trades durability and memory.
 *
 * @param fsync whether every batch waits for fsync of the write-ahead log (concurrent batches
 *     share one: group commit, see {@link RocksStore}). Without it an
 *     acknowledged write survives a crash of the process (the WAL is always written before
 *     {@code apply} returns) but not of the machine, unless {@code Store.sync()} ran after it.
 * @param blockCacheSizeBytes the LRU cache for data, index and filter blocks: the store's main
 *     memory bound besides the memtables.
 * @param writeBufferSizeBytes one memtable's size before it is flushed to a table file.
 * @param pointCacheSizeBytes the Java-heap cache of recently read and written values
 *     ({@link PointCache}), which answers a point read of a hot key without calling into RocksDB;
 *     0 turns it off.
 * @param idleCompactionBytesMax when writes pause, the memtable is flushed and, while the table
 *     files hold at most this many bytes, the whole key range is compacted into one level
 *     ({@link IdleCompaction}); 0 turns both off.
 */
public record RocksStoreOptions(
        boolean fsync,
        long blockCacheSizeBytes,
        long writeBufferSizeBytes,
        long pointCacheSizeBytes,
        long idleCompactionBytesMax) {
    public static final long BLOCK_CACHE_SIZE_BYTES_DEFAULT = 64L << 20;
    public static final long WRITE_BUFFER_SIZE_BYTES_DEFAULT = 64L << 20;
    /** About 200,000 keys of 200-byte values: the harness's 100,000 items and their reads fit. */
    public static final long POINT_CACHE_SIZE_BYTES_DEFAULT = 64L << 20;
    /**
     * Rewriting this much takes a few seconds of one core (the harness's 100,000 items, 82 MB of
     * files in, took 0.6 s); above it RocksDB's own compactions are left to shape the tree.
     */
    public static final long IDLE_COMPACTION_BYTES_MAX_DEFAULT = 256L << 20;
    /** Below this RocksDB spends its time flushing and evicting; above it is a typo. */
    public static final long SIZE_BYTES_MIN = 1L << 20;

    public static final long SIZE_BYTES_MAX = 1L << 40;

    public RocksStoreOptions {
        requireSize("blockCacheSizeBytes", blockCacheSizeBytes);
        requireSize("writeBufferSizeBytes", writeBufferSizeBytes);
        if (pointCacheSizeBytes != 0) {
            requireSize("pointCacheSizeBytes", pointCacheSizeBytes);
        }
        if (idleCompactionBytesMax != 0) {
            requireSize("idleCompactionBytesMax", idleCompactionBytesMax);
        }
    }

    public static RocksStoreOptions defaults() {
        return new RocksStoreOptions(
                false,
                BLOCK_CACHE_SIZE_BYTES_DEFAULT,
                WRITE_BUFFER_SIZE_BYTES_DEFAULT,
                POINT_CACHE_SIZE_BYTES_DEFAULT,
                IDLE_COMPACTION_BYTES_MAX_DEFAULT);
    }

    public RocksStoreOptions withFsync(boolean value) {
        return new RocksStoreOptions(
                value, blockCacheSizeBytes, writeBufferSizeBytes, pointCacheSizeBytes, idleCompactionBytesMax);
    }

    public RocksStoreOptions withBlockCacheSizeBytes(long value) {
        return new RocksStoreOptions(fsync, value, writeBufferSizeBytes, pointCacheSizeBytes, idleCompactionBytesMax);
    }

    public RocksStoreOptions withWriteBufferSizeBytes(long value) {
        return new RocksStoreOptions(fsync, blockCacheSizeBytes, value, pointCacheSizeBytes, idleCompactionBytesMax);
    }

    /** 0 turns the point cache off; otherwise at least {@link #SIZE_BYTES_MIN}. */
    public RocksStoreOptions withPointCacheSizeBytes(long value) {
        return new RocksStoreOptions(fsync, blockCacheSizeBytes, writeBufferSizeBytes, value, idleCompactionBytesMax);
    }

    /** 0 turns idle flushes and compactions off; otherwise at least {@link #SIZE_BYTES_MIN}. */
    public RocksStoreOptions withIdleCompactionBytesMax(long value) {
        return new RocksStoreOptions(fsync, blockCacheSizeBytes, writeBufferSizeBytes, pointCacheSizeBytes, value);
    }

    private static void requireSize(String name, long sizeBytes) {
        if (sizeBytes < SIZE_BYTES_MIN || sizeBytes > SIZE_BYTES_MAX) {
            throw new IllegalArgumentException(
                    name + " must be in [" + SIZE_BYTES_MIN + ", " + SIZE_BYTES_MAX + "]: " + sizeBytes);
        }
    }
}
