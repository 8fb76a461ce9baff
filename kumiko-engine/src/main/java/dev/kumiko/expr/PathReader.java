package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads the value at a document path, resolving {@code #names} on the way. */
final class PathReader {
    private PathReader() {}

    /** The value at {@code path}, or null when any step is missing or of the wrong type. */
    static @Nullable AttributeValue read(
            Map<String, AttributeValue> item, Operand.Path path, Map<String, String> names) {
        List<PathElement> elements = path.elements();
        AttributeValue current = item.get(name((PathElement.Name) elements.get(0), names));
        for (int i = 1; i < elements.size() && current != null; i++) {
            current = step(current, elements.get(i), names);
        }
        return current;
    }

    private static @Nullable AttributeValue step(
            AttributeValue current, PathElement element, Map<String, String> names) {
        if (element instanceof PathElement.Name n) {
            if (current.type() != dev.kumiko.model.AttributeType.M) {
                return null;
            }
            return ((AttributeValue.M) current).values().get(name(n, names));
        }
        int index = ((PathElement.Index) element).index();
        if (current.type() != dev.kumiko.model.AttributeType.L) {
            return null;
        }
        List<AttributeValue> list = ((AttributeValue.L) current).values();
        return index < list.size() ? list.get(index) : null;
    }

    static @Nullable String name(PathElement.Name n, Map<String, String> names) {
        return n.isPlaceholder() ? names.get(n.text()) : n.text();
    }
}
