package dev.kumiko.engine.read;

import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.Select;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Query and Scan as the client sent them. */
public final class ReadRequests {
    private ReadRequests() {}

    /** Members Query and Scan share: paging, filtering, projection, Select, capacity. */
    public record Common(
            String tableName,
            @Nullable String indexName,
            @Nullable Select select,
            @Nullable Long limit,
            @Nullable Boolean consistentRead,
            @Nullable Map<String, AttributeValue> exclusiveStartKey,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable String filterExpression,
            @Nullable String projectionExpression,
            @Nullable Map<String, String> expressionAttributeNames,
            @Nullable Map<String, AttributeValue> expressionAttributeValues,
            @Nullable Map<String, LegacyCondition> legacyFilter,
            @Nullable String conditionalOperator,
            @Nullable List<String> attributesToGet) {}

    public record Query(
            Common common,
            @Nullable String keyConditionExpression,
            @Nullable Map<String, LegacyCondition> keyConditions,
            @Nullable Boolean scanIndexForward) {}

    public record Scan(
            Common common, @Nullable Long segment, @Nullable Long totalSegments) {}
}
