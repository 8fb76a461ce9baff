package dev.kumiko.storage;

/**
 * How a transaction meets others on the same keys. DynamoDB does not queue writers behind a
 * multi-item transaction: a second transaction touching its items is cancelled and a plain write
 * to one of them is refused (TransactionConflict). Writers of one item only, meanwhile, are
 * serialized by waiting.
 */
public enum TransactionMode {
    /**
     * A single-item writer or a background task: waits for other writers of its keys, but conflicts
     * at once with a key a {@link #CLAIM} transaction holds.
     */
    WAIT,
    /**
     * A multi-item transaction (TransactWriteItems): claims its keys so that others conflict with
     * it instead of waiting, and conflicts at once with a key another claim holds, so two claiming
     * transactions never wait on each other.
     */
    CLAIM
}
