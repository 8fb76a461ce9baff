package dev.kumiko.expr;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Builds the sub-document a projection selects. Nested paths keep their enclosing maps; list
 * indexes select elements, which come back as a shorter list in index order (so {@code a[1],
 * a[3]} yields a two-element list). Missing paths contribute nothing.
 */
final class Projector {
    private Projector() {}

    /** Paths must already be resolved (no placeholders). */
    static Map<String, AttributeValue> project(Map<String, AttributeValue> item, List<Operand.Path> paths) {
        MapNode root = new MapNode();
        for (Operand.Path path : paths) {
            AttributeValue leaf = PathReader.read(item, path, Map.of());
            if (leaf != null) {
                root.put(path.elements(), 0, leaf);
            }
        }
        return root.toMap();
    }

    private interface Node {
        AttributeValue toValue();
    }

    private record Leaf(AttributeValue value) implements Node {
        @Override
        public AttributeValue toValue() {
            return value;
        }
    }

    private static Node child(@Nullable Node existing, List<PathElement> path, int next, AttributeValue leaf) {
        if (next == path.size()) {
            return new Leaf(leaf);
        }
        Node node = existing;
        if (path.get(next) instanceof PathElement.Name) {
            if (!(node instanceof MapNode)) {
                node = new MapNode();
            }
            ((MapNode) node).put(path, next, leaf);
        } else {
            if (!(node instanceof ListNode)) {
                node = new ListNode();
            }
            ((ListNode) node).put(path, next, leaf);
        }
        return node;
    }

    private static final class MapNode implements Node {
        private final Map<String, Node> children = new LinkedHashMap<>();

        void put(List<PathElement> path, int i, AttributeValue leaf) {
            String name = ((PathElement.Name) path.get(i)).text();
            children.put(name, child(children.get(name), path, i + 1, leaf));
        }

        Map<String, AttributeValue> toMap() {
            Map<String, AttributeValue> out = new LinkedHashMap<>();
            children.forEach((k, v) -> out.put(k, v.toValue()));
            return out;
        }

        @Override
        public AttributeValue toValue() {
            return AttributeValue.m(toMap());
        }
    }

    private static final class ListNode implements Node {
        private final TreeMap<Integer, Node> children = new TreeMap<>();

        void put(List<PathElement> path, int i, AttributeValue leaf) {
            int index = ((PathElement.Index) path.get(i)).index();
            children.put(index, child(children.get(index), path, i + 1, leaf));
        }

        @Override
        public AttributeValue toValue() {
            List<AttributeValue> out = new ArrayList<>();
            children.values().forEach(n -> out.add(n.toValue()));
            return AttributeValue.l(out);
        }
    }

    static boolean isContainer(AttributeValue v) {
        return v.type() == AttributeType.M || v.type() == AttributeType.L;
    }
}
