package dev.kumiko.engine.read;

import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.Select;
import java.util.List;
import java.util.Map;

/** Query and Scan as the client sent them. */
public final class ReadRequests {
    private ReadRequests() {}

    /** Members Query and Scan share: paging, filtering, projection, Select, capacity. */
    public record Common(
            String tableName,
            String indexName,
            Select select,
            Long limit,
            Boolean consistentRead,
            Map<String, AttributeValue> exclusiveStartKey,
            ReturnConsumedCapacity returnConsumedCapacity,
            String filterExpression,
            String projectionExpression,
            Map<String, String> expressionAttributeNames,
            Map<String, AttributeValue> expressionAttributeValues,
            Map<String, LegacyCondition> legacyFilter,
            String conditionalOperator,
            List<String> attributesToGet) {}

    public record Query(
            Common common,
            String keyConditionExpression,
            Map<String, LegacyCondition> keyConditions,
            Boolean scanIndexForward) {}

    public record Scan(Common common, Long segment, Long totalSegments) {}
}
