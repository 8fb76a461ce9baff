package dev.kumiko.storage;

import org.jspecify.annotations.Nullable;

/**
 * One read-modify-write cycle on a {@link Store}: reads inside the transaction, then one atomic
 * {@link #commit} of the writes buffered in a {@link WriteBatch}.
 *
 * <p>Isolation: the keys given to {@link Store#begin} and every key read through the transaction
 * are protected from the moment they are read until the transaction ends; a commit that would
 * overwrite a concurrent change to one of them fails with {@link StoreConflictException} and
 * writes nothing. How a store protects them is its choice: key locks (the local stores) or
 * optimistic validation at commit (a distributed store). Keys written but never read (index
 * entries, change records of a locked item) are blind writes: the protected keys they derive
 * from already serialize them.
 *
 * <p>Used by one thread; must be closed (an uncommitted transaction is abandoned, writing nothing).
 */
public interface Transaction extends AutoCloseable {

    /** The committed value of key as of this transaction, or null. */
    byte @Nullable [] get(byte[] key);

    /** The values of keys, in their order (null where missing), read in one call. */
    byte[][] getAll(byte[][] keys);

    /**
     * Commits every put and delete of batch atomically. Throws {@link StoreConflictException},
     * having written nothing, when a protected key changed since it was read. At most once.
     */
    void commit(WriteBatch batch);

    /** Ends the transaction, releasing what it holds; abandons it if not committed. */
    @Override
    void close();
}
