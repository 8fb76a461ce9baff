package dev.kumiko.engine.item;

import dev.kumiko.engine.Constraints;
import dev.kumiko.engine.Enums;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.error.DynamoException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/** Request-shape checks shared by BatchWriteItem and BatchGetItem. */
final class BatchChecks {
    private BatchChecks() {}

    /** RequestItems: present, 1..maxTables tables, each with 1..perTableMax entries, at most totalMax in all. */
    static <T> void requestItems(Map<String, T> items, ToIntFunction<T> size, int perTableMax, int totalMax,
            String operation, String returnConsumedCapacity) {
        Constraints c = new Constraints();
        if (c.notNull("requestItems", items)) {
            c.size("requestItems", items.keySet(), "{...}", 1, Integer.MAX_VALUE);
        }
        c.enumValue("returnConsumedCapacity", returnConsumedCapacity, Enums.RETURN_CONSUMED_CAPACITY);
        c.throwIfAny();
        int total = 0;
        for (Map.Entry<String, T> e : items.entrySet()) {
            TableNames.resolve(e.getKey(), "requestItems.key");
            int n = e.getValue() == null ? 0 : size.applyAsInt(e.getValue());
            if (n < 1 || (perTableMax > 0 && n > perTableMax)) {
                // Model constraint text; the "{...}" rendering of the map is not DynamoDB's.
                throw DynamoException.validation("1 validation error detected: Value '{...}' at 'requestItems' failed "
                        + "to satisfy constraint: Map value must satisfy constraint: [Member must have length less "
                        + "than or equal to " + perTableMax + ", Member must have length greater than or equal to 1]");
            }
            total += n;
        }
        if (total > totalMax) {
            throw DynamoException.validation("Too many items requested for the " + operation + " call");
        }
    }

    /** Keys are compared by their storage key, which identifies an item across tables. */
    static void noDuplicates(Collection<byte[]> keys) {
        Set<java.nio.ByteBuffer> seen = new HashSet<>(keys.size() * 2);
        for (byte[] k : keys) {
            if (!seen.add(java.nio.ByteBuffer.wrap(k))) { // content equality, no copy
                throw DynamoException.validation("Provided list of item keys contains duplicates");
            }
        }
    }

    static int size(List<?> list) {
        return list.size();
    }
}
