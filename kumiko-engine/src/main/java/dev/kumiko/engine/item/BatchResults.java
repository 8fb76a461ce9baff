package dev.kumiko.engine.item;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Answers of the batch operations; consumedCapacity is null when the client did not ask. */
public final class BatchResults {
    private BatchResults() {}

    /** itemCollectionMetrics is null unless asked for, and lists only tables with LSIs. */
    public record BatchWrite(
            Map<String, List<BatchRequests.WriteRequest>> unprocessedItems,
            @Nullable List<ConsumedCapacity> consumedCapacity,
            @Nullable Map<String, List<ItemCollectionMetrics>> itemCollectionMetrics) {}

    public record BatchGet(
            Map<String, List<Map<String, AttributeValue>>> responses,
            Map<String, BatchRequests.KeysAndAttributes> unprocessedKeys,
            @Nullable List<ConsumedCapacity> consumedCapacity) {}
}
