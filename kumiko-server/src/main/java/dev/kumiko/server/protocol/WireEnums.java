package dev.kumiko.server.protocol;

import dev.kumiko.engine.base.Constraints;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Wire strings to the engine's enums. Each enum's constants are the wire names, declared in the
 * order DynamoDB lists the set in its "Member must satisfy enum value set: [...]" message, so the
 * set printed here is the enum's own. A decoder types the request, then checks every member as
 * the wire sent it (one message for all violations, in DynamoDB's order).
 */
final class WireEnums {
    private static final ClassValue<List<String>> NAMES = new ClassValue<>() {
        @Override
        protected List<String> computeValue(Class<?> type) {
            return Arrays.stream(type.getEnumConstants())
                    .map(e -> ((Enum<?>) e).name())
                    .toList();
        }
    };

    private WireEnums() {}

    /** Records a violation when {@code value} is given and not one of the enum's wire names. */
    static void check(Constraints c, String path, @Nullable String value, Class<? extends Enum<?>> type) {
        c.enumValue(path, value, NAMES.get(type));
    }

    /**
     * The constant, or null when absent or not a wire name: a request with such a member never
     * reaches the engine (its check fails), but its authorization rule still reads it.
     */
    static <E extends Enum<E>> @Nullable E lenient(Class<E> type, @Nullable String value) {
        return value == null || !NAMES.get(type).contains(value) ? null : Enum.valueOf(type, value);
    }
}
