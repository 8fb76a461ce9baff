package dev.kumiko.engine.failure;

import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.storage.ConflictBackoff;
import dev.kumiko.storage.StoreConflictException;

/**
 * What a single-item writer does when its store transaction conflicts: a key held by a multi-item
 * transaction is DynamoDB's TransactionConflictException at once (DynamoDB refuses such writes
 * instead of queueing them); a race with another writer is run again after a short, jittered,
 * growing pause ({@link ConflictBackoff}), at most {@link #ATTEMPTS_MAX} times, then answered as a
 * conflict too.
 *
 * <p>The local stores lock keys, so their plain writers never race and only the first case
 * happens; a store that validates optimistically (shared by several engines) meets the second.
 *
 * <p>The pauses add up to about 1.3 s (0.9-1.8 s with their jitter) before the last attempt.
 * Most races end within the first few attempts, but a shared store also aborts transactions
 * while a partition they touch fails over: with 8 attempts and pauses of at most 32 ms (about
 * 0.1 s in all), PutItems of new keys were answered TransactionConflictException 20 s after an
 * Ignite node was killed (scripts/ignite-cluster.sh), which DynamoDB does not answer for a key
 * no transaction holds; in that script's runs since, writes 2-10 s after the kill took up to
 * 15 attempts and then succeeded.
 */
public final class ConflictRetry {
    /** Attempts of one read-modify-write cycle, the first included. */
    public static final int ATTEMPTS_MAX = 16;

    private ConflictRetry() {}

    /**
     * Called after attempt (0 for the first) failed with e: returns when the caller should run the
     * cycle again, throws what the client sees otherwise. waitOutClaims: retry claimed keys too
     * (BatchWriteItem waits for a transaction instead of failing).
     */
    public static void afterConflict(StoreConflictException e, int attempt, boolean waitOutClaims) {
        if ((e.claimed() && !waitOutClaims) || attempt + 1 >= ATTEMPTS_MAX) {
            throw conflict();
        }
        ConflictBackoff.pause(attempt);
    }

    /** Wording as a real-DynamoDB log quotes it for a plain UpdateItem (docs/notes/error-messages.md). */
    public static DynamoException conflict() {
        return new DynamoException(ErrorCode.TRANSACTION_CONFLICT, CancellationReason.TRANSACTION_CONFLICT_MESSAGE);
    }
}
