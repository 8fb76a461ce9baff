package dev.kumiko.engine.check;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeNames;
import java.util.Map;

/** An item to write names its attributes with 1 to 65,535 bytes each; checked before the table. */
public final class ItemNames {
    private ItemNames() {}

    public static void check(Map<String, ?> item) {
        for (String name : item.keySet()) {
            String problem = AttributeNames.problem(name);
            if (problem != null) {
                throw DynamoException.invalidParameter(problem);
            }
        }
    }
}
