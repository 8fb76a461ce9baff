package dev.kumiko.partiql;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The answers of the three PartiQL operations; absent members are null. */
public final class PqResults {
    private PqResults() {}

    /** ExecuteStatement: items (empty for a write without RETURNING), and paging for a SELECT. */
    public record ExecuteStatement(
            List<Map<String, AttributeValue>> items,
            @Nullable String nextToken,
            @Nullable Map<String, AttributeValue> lastEvaluatedKey,
            @Nullable ConsumedCapacity consumedCapacity) {}

    /** One BatchStatementError; {@code item} only for a failed condition with ALL_OLD. */
    public record BatchError(
            String code, @Nullable String message, @Nullable Map<String, AttributeValue> item) {}

    /** One BatchStatementResponse: the table and item on success, the error otherwise. */
    public record BatchEntry(
            @Nullable String tableName,
            @Nullable Map<String, AttributeValue> item,
            @Nullable BatchError error) {}

    public record BatchExecuteStatement(
            List<BatchEntry> responses, @Nullable List<ConsumedCapacity> consumedCapacity) {}

    /**
     * ExecuteTransaction: for reads one entry per statement (null when the item does not exist),
     * for writes an empty list.
     */
    public record ExecuteTransaction(
            List<Map<String, AttributeValue>> responses,
            @Nullable List<ConsumedCapacity> consumedCapacity) {}
}
