package dev.kumiko.engine.txn;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;
import java.util.Map;

/**
 * TransactWriteItems and TransactGetItems, typed: enum members are enums (the server's decoders
 * check the wire strings); maps keep the request's order for messages but compare by content.
 */
public final class TransactRequests {
    private TransactRequests() {}

    /** The operations a TransactWriteItem can carry, with their member names in paths. */
    public enum Kind {
        CONDITION_CHECK("conditionCheck"), PUT("put"), DELETE("delete"), UPDATE("update");

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
    public record WriteAction(int kindsGiven, Kind kind, String tableName, Map<String, AttributeValue> item,
            Map<String, AttributeValue> key, String conditionExpression, String updateExpression,
            Map<String, String> expressionAttributeNames, Map<String, AttributeValue> expressionAttributeValues,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {}

    public record TransactWrite(List<WriteAction> transactItems, ReturnConsumedCapacity returnConsumedCapacity,
            ReturnItemCollectionMetrics returnItemCollectionMetrics, String clientRequestToken) {}

    /** One TransactGetItem; {@code given} is false when its Get member is missing. */
    public record GetAction(boolean given, String tableName, Map<String, AttributeValue> key,
            String projectionExpression, Map<String, String> expressionAttributeNames) {}

    public record TransactGet(List<GetAction> transactItems, ReturnConsumedCapacity returnConsumedCapacity) {}
}
