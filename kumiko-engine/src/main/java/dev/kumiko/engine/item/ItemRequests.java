package dev.kumiko.engine.item;

import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.expr.LegacyUpdate;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * The single-item requests as the client sent them. Enum members stay strings so validation can
 * echo them; legacy members (Expected, AttributeUpdates, AttributesToGet) ride along with the
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
            String returnValues,
            String returnConsumedCapacity,
            String returnItemCollectionMetrics,
            String returnValuesOnConditionCheckFailure,
            Conditions conditions) {}

    public record GetItem(
            String tableName,
            Map<String, AttributeValue> key,
            Boolean consistentRead,
            String returnConsumedCapacity,
            String projectionExpression,
            Map<String, String> expressionAttributeNames,
            List<String> attributesToGet) {}

    public record UpdateItem(
            String tableName,
            Map<String, AttributeValue> key,
            String updateExpression,
            String returnValues,
            String returnConsumedCapacity,
            String returnItemCollectionMetrics,
            String returnValuesOnConditionCheckFailure,
            Map<String, LegacyUpdate> attributeUpdates,
            Conditions conditions) {}

    public record DeleteItem(
            String tableName,
            Map<String, AttributeValue> key,
            String returnValues,
            String returnConsumedCapacity,
            String returnItemCollectionMetrics,
            String returnValuesOnConditionCheckFailure,
            Conditions conditions) {}
}
