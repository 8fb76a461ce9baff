package dev.kumiko.engine.item;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.Map;

/**
 * The answer of a single-item operation: the returned attributes, the cost and the item
 * collection metrics, each null when absent or not asked for.
 */
public record ItemResult(Map<String, AttributeValue> attributes, ConsumedCapacity consumedCapacity,
        ItemCollectionMetrics itemCollectionMetrics) {

    public ItemResult(Map<String, AttributeValue> attributes, ConsumedCapacity consumedCapacity) {
        this(attributes, consumedCapacity, null);
    }
}
