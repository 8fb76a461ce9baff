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
import org.jspecify.annotations.Nullable;

/**
 * The single-item requests, typed: enum members are enums (the server's decoders check the wire
 * strings). Legacy members (Expected, AttributeUpdates, AttributesToGet) ride along with the
 * expression members and are mapped onto the same evaluator.
 */
public final class ItemRequests {
    private ItemRequests() {}

    /** Expression and legacy condition members shared by the write operations. */
    public record Conditions(
            @Nullable String conditionExpression,
            @Nullable Map<String, String> expressionAttributeNames,
            @Nullable Map<String, AttributeValue> expressionAttributeValues,
            @Nullable Map<String, LegacyCondition> expected,
            @Nullable String conditionalOperator) {
        public static final Conditions NONE = new Conditions(null, null, null, null, null);
    }

    public record PutItem(
            String tableName,
            Map<String, AttributeValue> item,
            @Nullable ReturnValue returnValues,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            Conditions conditions) {}

    public record GetItem(
            String tableName,
            Map<String, AttributeValue> key,
            @Nullable Boolean consistentRead,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable String projectionExpression,
            @Nullable Map<String, String> expressionAttributeNames,
            @Nullable List<String> attributesToGet) {}

    public record UpdateItem(
            String tableName,
            Map<String, AttributeValue> key,
            @Nullable String updateExpression,
            @Nullable ReturnValue returnValues,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            @Nullable Map<String, LegacyUpdate> attributeUpdates,
            Conditions conditions) {}

    public record DeleteItem(
            String tableName,
            Map<String, AttributeValue> key,
            @Nullable ReturnValue returnValues,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            Conditions conditions) {}
}
