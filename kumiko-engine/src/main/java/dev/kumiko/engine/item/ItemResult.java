package dev.kumiko.engine.item;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.Map;

/** The answer of a single-item operation: the returned attributes (or null) and the cost (or null). */
public record ItemResult(Map<String, AttributeValue> attributes, ConsumedCapacity consumedCapacity) {}
