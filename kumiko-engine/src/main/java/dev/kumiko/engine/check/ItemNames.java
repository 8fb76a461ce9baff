package dev.kumiko.engine.check;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeNames;
import java.util.Map;

/** An item to write names its attributes with 1 to 65,535 bytes each; checked before the table. */
public final class ItemNames {
    private ItemNames() {}

    /**
     * Through {@code Map.forEach}: a request's item is an unmodifiable map, whose forEach walks the
     * map inside, where a walk of its key set goes through a wrapper's iterator.
     */
    public static void check(Map<String, ?> item) {
        item.forEach(ItemNames::checkOne);
    }

    private static void checkOne(String name, Object value) {
        String problem = AttributeNames.problem(name);
        if (problem != null) {
            throw DynamoException.invalidParameter(problem);
        }
    }
}
