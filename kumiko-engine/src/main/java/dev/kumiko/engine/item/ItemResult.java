package dev.kumiko.engine.item;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The answer of a single-item operation: the returned attributes, the cost and the item
 * collection metrics, each null when absent or not asked for.
 */
public record ItemResult(
        @Nullable Map<String, AttributeValue> attributes,
        @Nullable ConsumedCapacity consumedCapacity,
        @Nullable ItemCollectionMetrics itemCollectionMetrics) {

    public ItemResult(@Nullable Map<String, AttributeValue> attributes, @Nullable ConsumedCapacity consumedCapacity) {
        this(attributes, consumedCapacity, null);
    }
}
