package dev.kumiko.engine.item;

import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.expr.LegacyUpdate;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;
import java.util.Map;

/**
 * The single-item requests, typed: enum members are enums (the server's decoders check the wire
 * strings). Legacy members (Expected, AttributeUpdates, AttributesToGet) ride along with the
 * expression members and are mapped onto the same evaluator.
 */
public final class ItemRequests {
    private ItemRequests() {}

    /** Expression and legacy condition members shared by the write operations. */
    public record Conditions(
            String conditionExpression,
            Map<String, String> expressionAttributeNames,
            Map<String, AttributeValue> expressionAttributeValues,
            Map<String, LegacyCondition> expected,
            String conditionalOperator) {
        public static final Conditions NONE = new Conditions(null, null, null, null, null);
    }

    public record PutItem(
            String tableName,
            Map<String, AttributeValue> item,
            ReturnValue returnValues,
            ReturnConsumedCapacity returnConsumedCapacity,
            ReturnItemCollectionMetrics returnItemCollectionMetrics,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            Conditions conditions) {}

    public record GetItem(
            String tableName,
            Map<String, AttributeValue> key,
            Boolean consistentRead,
            ReturnConsumedCapacity returnConsumedCapacity,
            String projectionExpression,
            Map<String, String> expressionAttributeNames,
            List<String> attributesToGet) {}

    public record UpdateItem(
            String tableName,
            Map<String, AttributeValue> key,
            String updateExpression,
            ReturnValue returnValues,
            ReturnConsumedCapacity returnConsumedCapacity,
            ReturnItemCollectionMetrics returnItemCollectionMetrics,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            Map<String, LegacyUpdate> attributeUpdates,
            Conditions conditions) {}

    public record DeleteItem(
            String tableName,
            Map<String, AttributeValue> key,
            ReturnValue returnValues,
            ReturnConsumedCapacity returnConsumedCapacity,
            ReturnItemCollectionMetrics returnItemCollectionMetrics,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            Conditions conditions) {}
}
