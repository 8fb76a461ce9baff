package dev.kumiko.engine.replication;

import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One item's change as it travels to a peer: the item's key attributes, its new image (null: the
 * item was deleted) and the stamp of the write in its origin region.
 */
public record ReplicatedChange(
        Map<String, AttributeValue> keys, @Nullable Map<String, AttributeValue> newImage, Stamp stamp) {
    /** How many changes one shipment carries at most: a bound on a request's size and work. */
    public static final int PER_SHIPMENT_MAX = 100;

    public ReplicatedChange {
        assert !keys.isEmpty();
    }
}
