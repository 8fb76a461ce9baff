package dev.kumiko.partiql;

import dev.kumiko.expr.Operand;
import dev.kumiko.expr.PathElement;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The answer shape of a SELECT list. PartiQL names a projected path after its last step, so
 * {@code SELECT info.city} answers {@code {"city": ...}}, not the enclosing {@code info} map that a
 * ProjectionExpression keeps. A path that ends in a list index has no such name; it keeps the
 * enclosing document, as ProjectionExpression builds it (DynamoDB's shape for it is unverified).
 *
 * <p>The equivalent operation therefore reads each projected top-level attribute whole ({@link
 * #fetchPaths}), and {@link #shape} cuts the answer from it: reading {@code a[3]} back out of a
 * ProjectionExpression's answer is not possible, since that answer renumbers list elements.
 */
final class PqProjection {
    private final List<Operand.Path> paths;
    /** ProjectionExpression over the index-ending paths; null when there are none. */
    private final @Nullable RequestExpressions indexed;

    private PqProjection(List<Operand.Path> paths, @Nullable RequestExpressions indexed) {
        this.paths = paths;
        this.indexed = indexed;
    }

    /** Null for {@code SELECT *}. */
    static @Nullable PqProjection of(@Nullable List<Operand.Path> paths) {
        if (paths == null) {
            return null;
        }
        List<Operand.Path> endInIndex = new ArrayList<>();
        for (Operand.Path p : paths) {
            if (!endsInName(p)) {
                endInIndex.add(p);
            }
        }
        return new PqProjection(List.copyOf(paths), endInIndex.isEmpty() ? null : expressions(endInIndex));
    }

    /**
     * The paths as written, for the projection's own checks (overlapping paths, nesting depth),
     * which must refuse a SELECT list as they refuse the same ProjectionExpression.
     */
    List<Operand.Path> writtenPaths() {
        return paths;
    }

    /** Each projected top-level attribute once, in the order the SELECT list first names it. */
    List<Operand.Path> fetchPaths() {
        Set<String> names = new LinkedHashSet<>();
        for (Operand.Path p : paths) {
            names.add(p.firstName());
        }
        List<Operand.Path> out = new ArrayList<>(names.size());
        for (String n : names) {
            out.add(Operand.Path.of(n));
        }
        return out;
    }

    /** The answer for an item read with {@link #fetchPaths}; null stays null (no item). */
    @Nullable
    Map<String, AttributeValue> shape(Map<String, AttributeValue> fetched) {
        if (fetched == null) {
            return null;
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        for (Operand.Path p : paths) {
            if (endsInName(p)) {
                AttributeValue v = read(fetched, p);
                if (v != null) {
                    out.put(((PathElement.Name) last(p)).text(), v);
                }
            }
        }
        if (indexed != null) {
            out.putAll(indexed.project(fetched));
        }
        return out;
    }

    List<Map<String, AttributeValue>> shape(List<Map<String, AttributeValue>> fetched) {
        List<Map<String, AttributeValue>> out = new ArrayList<>(fetched.size());
        for (Map<String, AttributeValue> item : fetched) {
            out.add(shape(item));
        }
        return out;
    }

    private static boolean endsInName(Operand.Path p) {
        return last(p) instanceof PathElement.Name;
    }

    private static PathElement last(Operand.Path p) {
        return p.elements().get(p.elements().size() - 1);
    }

    private static RequestExpressions expressions(List<Operand.Path> paths) {
        PqExpressionText text = new PqExpressionText();
        String projection = text.projection(paths);
        return RequestExpressions.builder()
                .projectionExpression(projection)
                .expressionAttributeNames(text.names())
                .build();
    }

    /** The value at a path written with plain names, or null when a step is missing or of another type. */
    private static @Nullable AttributeValue read(Map<String, AttributeValue> item, Operand.Path p) {
        List<PathElement> elements = p.elements();
        AttributeValue current = item.get(((PathElement.Name) elements.get(0)).text());
        for (int i = 1; i < elements.size() && current != null; i++) {
            PathElement e = elements.get(i);
            if (e instanceof PathElement.Name n) {
                current = current.type() == AttributeType.M
                        ? ((AttributeValue.M) current).values().get(n.text())
                        : null;
            } else {
                int index = ((PathElement.Index) e).index();
                List<AttributeValue> list =
                        current.type() == AttributeType.L ? ((AttributeValue.L) current).values() : null;
                current = list != null && index < list.size() ? list.get(index) : null;
            }
        }
        return current;
    }
}
