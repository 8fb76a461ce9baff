package dev.kumiko.engine.check;

import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.LegacyUpdate;
import dev.kumiko.model.AttributeNames;
import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An item to write names its attributes with 1 to 65,535 bytes each, the keys of its maps too, at
 * every depth; checked before the table.
 */
public final class ItemNames {
    private ItemNames() {}

    /**
     * Through {@code Map.forEach}: a request's item is an unmodifiable map, whose forEach walks the
     * map inside, where a walk of its key set goes through a wrapper's iterator.
     */
    public static void check(Map<String, AttributeValue> item) {
        item.forEach(ItemNames::checkOne);
    }

    /** AttributeUpdates names attributes to write, and its values are written too. */
    public static void checkUpdates(Map<String, LegacyUpdate> updates) {
        updates.forEach((name, update) -> checkOne(name, update == null ? null : update.value()));
    }

    /** The names inside a value: the keys of its maps, also inside lists. */
    public static void checkValue(@Nullable AttributeValue value) {
        if (value instanceof AttributeValue.M m) {
            m.values().forEach(ItemNames::checkOne);
        } else if (value instanceof AttributeValue.L l) {
            for (AttributeValue element : l.values()) {
                checkValue(element);
            }
        }
    }

    /** Throws DynamoDB's error for a name that is empty or over 65,535 bytes. */
    public static void checkName(String name) {
        if (name.isEmpty()) {
            throw DynamoException.invalidParameter(AttributeNames.EMPTY);
        }
        if (AttributeNames.tooLarge(name)) {
            throw DynamoException.validation(AttributeNames.TOO_LARGE);
        }
    }

    private static void checkOne(String name, @Nullable AttributeValue value) {
        checkName(name);
        checkValue(value);
    }
}
