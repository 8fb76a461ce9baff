package dev.kumiko.engine.txn;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * TransactWriteItems and TransactGetItems, typed: enum members are enums (the server's decoders
 * check the wire strings); maps keep the request's order for messages but compare by content.
 */
public final class TransactRequests {
    private TransactRequests() {}

    /** The operations a TransactWriteItem can carry, with their member names in paths. */
    public enum Kind {
        CONDITION_CHECK("conditionCheck"),
        PUT("put"),
        DELETE("delete"),
        UPDATE("update");

        private final String member;

        Kind(String member) {
            this.member = member;
        }

        public String member() {
            return member;
        }
    }

    /**
     * One TransactWriteItem. {@code kindsGiven} counts the operations the client set (exactly one
     * is valid); {@code kind} is the first of them, null when none was. {@code item} is Put's,
     * {@code key} the other operations'.
     */
    public record WriteAction(
            int kindsGiven,
            @Nullable Kind kind,
            String tableName,
            @Nullable Map<String, AttributeValue> item,
            @Nullable Map<String, AttributeValue> key,
            @Nullable String conditionExpression,
            @Nullable String updateExpression,
            @Nullable Map<String, String> expressionAttributeNames,
            @Nullable Map<String, AttributeValue> expressionAttributeValues,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {}

    public record TransactWrite(
            List<WriteAction> transactItems,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics,
            @Nullable String clientRequestToken) {}

    /** One TransactGetItem; {@code given} is false when its Get member is missing. */
    public record GetAction(
            boolean given,
            @Nullable String tableName,
            @Nullable Map<String, AttributeValue> key,
            @Nullable String projectionExpression,
            @Nullable Map<String, String> expressionAttributeNames) {}

    public record TransactGet(
            List<GetAction> transactItems, @Nullable ReturnConsumedCapacity returnConsumedCapacity) {}
}
