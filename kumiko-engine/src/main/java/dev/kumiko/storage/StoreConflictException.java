package dev.kumiko.storage;

import org.jspecify.annotations.Nullable;

/**
 * A transaction could not begin or commit because another one touched the same keys; nothing was
 * written. The engine decides what the client sees: a claimed key is DynamoDB's
 * TransactionConflict and is answered as such, a retryable race is run again by
 * {@link ReadModifyWrite}, within its bounds.
 */
public final class StoreConflictException extends RuntimeException {
    private static final int[] NONE = new int[0];

    private final transient int[] keyIndexes;
    private final boolean claimed;

    /**
     * keyIndexes: positions, in the keys given to {@link Store#begin}, of the contested keys (empty
     * when the store cannot tell); claimed: a multi-item transaction holds them.
     */
    public StoreConflictException(int @Nullable [] keyIndexes, boolean claimed) {
        super(claimed ? "keys held by a transaction" : "concurrent change to a key read", null, false, false);
        this.keyIndexes = keyIndexes == null ? NONE : keyIndexes.clone();
        this.claimed = claimed;
    }

    public int[] keyIndexes() {
        return keyIndexes.clone();
    }

    /** A multi-item transaction holds the keys: DynamoDB refuses the write rather than queue it. */
    public boolean claimed() {
        return claimed;
    }

    /** Running the whole read-modify-write cycle again may succeed. */
    public boolean retryable() {
        return !claimed;
    }
}
