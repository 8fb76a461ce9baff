package dev.kumiko.engine.vector;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads a vector from an attribute: a list (L) of exactly the index's dimensions of numbers (N),
 * each within f32's range, stored at f32 precision as DynamoDB stores it in the index. Anything
 * else is not a valid vector: the item is simply not in the index (Developer Guide, "Storage
 * considerations": only items with a valid vector attribute are replicated to the index).
 */
public final class VectorValues {
    private VectorValues() {}

    /** The item's vector for an index of that many dimensions, or null when it has no valid one. */
    public static float @Nullable [] of(@Nullable AttributeValue value, int dimensions) {
        if (!(value instanceof AttributeValue.L list) || list.values().size() != dimensions) {
            return null;
        }
        return floats(list.values());
    }

    /** The numbers as f32, or null when one is not a number or falls outside f32's finite range. */
    static float @Nullable [] floats(List<AttributeValue> values) {
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(values.get(i) instanceof AttributeValue.N n)) {
                return null;
            }
            float f = n.value().value().floatValue();
            if (!Float.isFinite(f)) {
                return null;
            }
            out[i] = f;
        }
        return out;
    }
}
