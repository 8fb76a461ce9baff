package dev.kumiko.engine.failure;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.storage.ReadModifyWrite;
import dev.kumiko.storage.ReadModifyWrite.Claimed;
import dev.kumiko.storage.StoreConflictException;

/**
 * How the item writers run their read-modify-write cycles ({@link ReadModifyWrite}) and what the
 * client hears when retries end: DynamoDB's TransactionConflictException.
 *
 * <p>A single-item write (PutItem, UpdateItem, DeleteItem) to a key that a multi-item transaction
 * holds is answered so at once, as DynamoDB refuses such writes instead of queueing them; a race
 * with another writer (only a store that validates optimistically has those) is run again, and
 * answered as a conflict too once the runner's attempts or deadline run out. A BatchWriteItem's
 * writes wait out a transaction instead of failing ({@link #batchWrite}).
 *
 * <p>DynamoDB answers TransactionConflictException only for a key a transaction holds; it has no
 * answer of its own for a race that outlasts retries (it serializes the writers of one item), so
 * Kumiko answers the same conflict, which a client may retry (docs/compatibility.md).
 */
public final class ConflictRetry {
    private ConflictRetry() {}

    /** Runs a single-item write's cycle: a claimed key, or retries that run out, is a conflict. */
    public static <T> T singleItem(ReadModifyWrite.Body<T> body) {
        return ReadModifyWrite.SYSTEM.run(Claimed.GIVE_UP, ConflictRetry::answer, body);
    }

    /** Runs a BatchWriteItem's cycle: it waits out claimed keys; retries that run out are a conflict. */
    public static <T> T batchWrite(ReadModifyWrite.Body<T> body) {
        return ReadModifyWrite.SYSTEM.run(Claimed.RETRY, ConflictRetry::answer, body);
    }

    /** The give-up answer: throws; never returns. */
    @SuppressWarnings("TypeParameterUnusedInFormals") // it only throws; T lets it serve as any GiveUp
    private static <T> T answer(StoreConflictException last) {
        throw conflict();
    }

    /** Wording as a real-DynamoDB log quotes it for a plain UpdateItem (docs/notes/error-messages.md). */
    private static DynamoException conflict() {
        return new DynamoException(ErrorCode.TRANSACTION_CONFLICT, CancellationReason.TRANSACTION_CONFLICT_MESSAGE);
    }
}
