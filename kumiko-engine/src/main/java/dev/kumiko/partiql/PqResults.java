package dev.kumiko.partiql;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** The answers of the three PartiQL operations; absent members are null. */
public final class PqResults {
    private PqResults() {}

    /** ExecuteStatement: items (empty for a write without RETURNING), and paging for a SELECT. */
    public record ExecuteStatement(List<Map<String, AttributeValue>> items, String nextToken,
            Map<String, AttributeValue> lastEvaluatedKey, ConsumedCapacity consumedCapacity) {}

    /** One BatchStatementError; {@code item} only for a failed condition with ALL_OLD. */
    public record BatchError(String code, String message, Map<String, AttributeValue> item) {}

    /** One BatchStatementResponse: the table and item on success, the error otherwise. */
    public record BatchEntry(String tableName, Map<String, AttributeValue> item, BatchError error) {}

    public record BatchExecuteStatement(List<BatchEntry> responses, List<ConsumedCapacity> consumedCapacity) {}

    /**
     * ExecuteTransaction: for reads one entry per statement (null when the item does not exist),
     * for writes an empty list.
     */
    public record ExecuteTransaction(List<Map<String, AttributeValue>> responses,
            List<ConsumedCapacity> consumedCapacity) {}
}
