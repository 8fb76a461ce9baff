package dev.kumiko.engine.read;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One page of a Query or Scan. {@code items} is null for Select COUNT (the response then has no
 * Items member); {@code lastEvaluatedKey} is null when the read reached the end of its range.
 */
public record ReadResult(
        @Nullable List<Map<String, AttributeValue>> items,
        int count,
        int scannedCount,
        @Nullable Map<String, AttributeValue> lastEvaluatedKey,
        @Nullable ConsumedCapacity consumedCapacity) {}
