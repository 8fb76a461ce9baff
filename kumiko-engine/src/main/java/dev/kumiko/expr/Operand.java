package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Something that evaluates to an attribute value (or to nothing, when a path is missing). */
public sealed interface Operand {

    /** A document path such as {@code a.#b[2].c}. The first element is always a Name. */
    record Path(List<PathElement> elements) implements Operand {
        public Path {
            elements = List.copyOf(elements);
            assert !elements.isEmpty() && elements.get(0) instanceof PathElement.Name;
        }

        public static Path of(String... names) {
            List<PathElement> list = new ArrayList<>();
            for (String n : names) {
                list.add(new PathElement.Name(n));
            }
            return new Path(list);
        }

        public String firstName() {
            return ((PathElement.Name) elements.get(0)).text();
        }

        /** The same path with every {@code #placeholder} replaced by its attribute name. */
        public Path resolve(Map<String, String> names) {
            List<PathElement> out = new ArrayList<>(elements.size());
            for (PathElement e : elements) {
                String resolved = e instanceof PathElement.Name n && n.isPlaceholder() ? names.get(n.text()) : null;
                if (resolved != null) {
                    out.add(new PathElement.Name(resolved));
                } else {
                    // An expression's placeholders are all defined (checked first), so this is a
                    // literal name: the legacy parameters' names are never placeholders, "#c" included.
                    out.add(e);
                }
            }
            return new Path(out);
        }

        /** DynamoDB's form in overlap messages: {@code [a, b, [0]]}. */
        public String display() {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < elements.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(elements.get(i));
            }
            return sb.append(']').toString();
        }
    }

    /** A {@code :placeholder} from ExpressionAttributeValues. */
    record ValueRef(String name) implements Operand {}

    /** A value given directly; only legacy parameters (Expected, AttributeUpdates, ...) produce these. */
    record Literal(AttributeValue value) implements Operand {}

    /** {@code size(operand)}. */
    record Size(Operand argument) implements Operand {}

    /** {@code left + right} or {@code left - right}; update SET only. */
    record Arithmetic(boolean plus, Operand left, Operand right) implements Operand {}

    /** {@code list_append(first, second)}; update SET only. */
    record ListAppend(Operand first, Operand second) implements Operand {}

    /** {@code if_not_exists(path, fallback)}; update SET only. */
    record IfNotExists(Operand path, Operand fallback) implements Operand {}
}
