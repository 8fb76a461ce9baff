package dev.kumiko.storage;

import org.jspecify.annotations.Nullable;

/**
 * The storage seam: an ordered key-value space over unsigned-lexicographic byte keys.
 *
 * <p>Reads see committed data only (read-committed). {@link #apply} commits a batch atomically:
 * a reader sees all of it or none of it for any one key, and a {@link Snapshot} sees all of it or
 * none of it across keys.
 *
 * <p>The store owns isolation: every read-modify-write cycle of the engine runs in a
 * {@link Transaction} from {@link #begin}, and the store detects conflicts between them (key locks
 * or optimistic validation, its choice), also between several engines sharing the store. The
 * engine keeps no lock of its own on data, so it runs unchanged over any store that passes the
 * contract.
 *
 * <p>Every store passes {@code StoreContract} in the engine's test jar.
 */
public interface Store extends AutoCloseable {

    /** The committed value of a key, or null. */
    byte @Nullable [] get(byte[] key);

    /**
     * Keys in [startInclusive, endExclusive), ascending or descending. The cursor reads committed
     * data; it must be closed.
     */
    Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse);

    /** The committed values of keys, in their order (null where missing), in one call. */
    default byte[][] getAll(byte[][] keys) {
        byte[][] values = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            values[i] = get(keys[i]);
        }
        return values;
    }

    /**
     * Begins a read-modify-write transaction over keys (the items it will read and write). May
     * wait for other transactions on these keys ({@link TransactionMode#WAIT}), or fail at once with
     * {@link StoreConflictException} when a claiming transaction holds one of them.
     */
    Transaction begin(byte[][] keys, TransactionMode mode);

    /** A single-item read-modify-write transaction that waits for other writers of key. */
    default Transaction begin(byte[] key) {
        return begin(new byte[][] {key}, TransactionMode.WAIT);
    }

    /**
     * Returns once every transaction that had begun when it was called has ended. A writer reads the
     * table's descriptor inside its transaction, so after a descriptor change and this call, every
     * writer still running uses the new descriptor (index backfill and stream boundaries rely on it).
     */
    void awaitTransactions();

    /**
     * Whether the store answers from this process's memory or disk. A remote store's calls block on
     * the network, so the server keeps them off its event loops; a local store's calls run inline.
     */
    default boolean local() {
        return true;
    }

    /**
     * The one instance of type that every engine over this store shares, created on first use: a
     * local store's in-memory cache in front of store data ({@link dev.kumiko.storage.local.ProcessShared}),
     * which is sound because every engine that can reach a local store runs in this process. The
     * engine asks for it only when {@link #local} is true; over a store shared by processes it keeps
     * the same state as store data alone (change-log numbers in the item's transaction, tokens in
     * their records), so this default throws.
     */
    default <T> T shared(Class<T> type, java.util.function.Supplier<T> create) {
        throw new UnsupportedOperationException("a store shared by processes keeps no process memory");
    }

    /** Commits every put and delete of the batch atomically, in order, outside any transaction. */
    void apply(WriteBatch batch);

    /** A consistent point-in-time view; must be closed, by the thread that opened it. */
    Snapshot snapshot();

    /**
     * Whether an open snapshot holds writers off until it is closed (the memory store's does). A long
     * read, such as a backup's copy, then reads what it needs into memory and closes the snapshot
     * before writing anything.
     */
    default boolean snapshotsHoldWriters() {
        return false;
    }

    /** Deletes every key in [startInclusive, endExclusive); used to drop a table's data. */
    void deleteRange(byte[] startInclusive, byte[] endExclusive);

    /** Makes every applied batch durable against a machine crash (fsync). */
    void sync();

    @Override
    void close();
}
