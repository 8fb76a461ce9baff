package dev.kumiko.storage;

/**
 * The storage seam: an ordered key-value space over unsigned-lexicographic byte keys.
 *
 * <p>Reads see committed data only (read-committed). {@link #apply} commits a batch atomically:
 * a reader sees all of it or none of it for any one key, and a {@link Snapshot} sees all of it or
 * none of it across keys. Serialization of read-modify-write cycles is the engine's job (it locks
 * item keys in a fixed order before reading), so a store needs no conflict detection of its own.
 *
 * <p>Every store passes {@code StoreContract} in the engine's test jar.
 */
public interface Store extends AutoCloseable {

    /** The committed value of a key, or null. */
    byte[] get(byte[] key);

    /**
     * Keys in [startInclusive, endExclusive), ascending or descending. The cursor reads committed
     * data; it must be closed.
     */
    Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse);

    /** Commits every put and delete of the batch atomically, in order. */
    void apply(WriteBatch batch);

    /** A consistent point-in-time view; must be closed. */
    Snapshot snapshot();

    /** Deletes every key in [startInclusive, endExclusive); used to drop a table's data. */
    void deleteRange(byte[] startInclusive, byte[] endExclusive);

    /** Makes every applied batch durable against a machine crash (fsync). */
    void sync();

    @Override
    void close();
}
