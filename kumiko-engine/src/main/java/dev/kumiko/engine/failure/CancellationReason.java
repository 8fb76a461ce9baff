package dev.kumiko.engine.failure;

import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Why one action of a transaction did not go through, as TransactionCanceledException lists it:
 * one reason per action, in request order, {@code None} for the actions that would have
 * succeeded. Message and item are null when absent; the item only for ConditionalCheckFailed with
 * ReturnValuesOnConditionCheckFailure = ALL_OLD.
 */
public record CancellationReason(
        String code, @Nullable String message, @Nullable Map<String, AttributeValue> item) {
    public static final String NONE = "None";
    public static final String CONDITIONAL_CHECK_FAILED = "ConditionalCheckFailed";
    public static final String VALIDATION_ERROR = "ValidationError";
    public static final String TRANSACTION_CONFLICT = "TransactionConflict";
    public static final String ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED = "ItemCollectionSizeLimitExceeded";

    /**
     * The API reference prints "Transaction is ongoing for the item." with a period, as it does for
     * "The conditional request failed." which the wire has without one; the reason's wire text is
     * UNVERIFIED. A real-DynamoDB log quotes it for TransactionConflictException too.
     */
    public static final String TRANSACTION_CONFLICT_MESSAGE = "Transaction is ongoing for the item";
    /** The API reference's text (with its period dropped, as for the other reasons); UNVERIFIED on the wire. */
    public static final String COLLECTION_SIZE_MESSAGE = "Collection size exceeded";

    public static final CancellationReason OK = new CancellationReason(NONE, null, null);

    public static CancellationReason conditionalCheckFailed(@Nullable Map<String, AttributeValue> item) {
        return new CancellationReason(CONDITIONAL_CHECK_FAILED, ConditionalCheckFailed.MESSAGE, item);
    }

    public static CancellationReason validationError(@Nullable String message) {
        return new CancellationReason(VALIDATION_ERROR, message, null);
    }

    public static CancellationReason transactionConflict() {
        return new CancellationReason(TRANSACTION_CONFLICT, TRANSACTION_CONFLICT_MESSAGE, null);
    }

    public static CancellationReason collectionSizeExceeded() {
        return new CancellationReason(ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED, COLLECTION_SIZE_MESSAGE, null);
    }

    public boolean isNone() {
        return NONE.equals(code);
    }
}
