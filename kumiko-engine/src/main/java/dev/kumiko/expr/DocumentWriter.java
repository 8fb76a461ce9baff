package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes or removes the value at a resolved document path, copying only the containers on the
 * path. Every container above the last step must exist with the right type; otherwise DynamoDB
 * answers "The document path provided in the update expression is invalid for update".
 */
final class DocumentWriter {
    private DocumentWriter() {}

    /** Sets {@code value} at {@code path}, or removes what is there when value is null. */
    static void write(Map<String, AttributeValue> item, List<PathElement> path, @Nullable AttributeValue value) {
        String top = ((PathElement.Name) path.get(0)).text();
        if (path.size() == 1) {
            if (value == null) {
                item.remove(top);
            } else {
                item.put(top, value);
            }
            return;
        }
        AttributeValue child = item.get(top);
        if (child == null) {
            throw invalidPath();
        }
        item.put(top, writeInto(child, path, 1, value));
    }

    private static AttributeValue writeInto(
            AttributeValue container, List<PathElement> path, int i, @Nullable AttributeValue value) {
        boolean last = i == path.size() - 1;
        PathElement step = path.get(i);
        if (step instanceof PathElement.Name n) {
            if (container.type() != AttributeType.M) {
                throw invalidPath();
            }
            Map<String, AttributeValue> copy = new LinkedHashMap<>(((AttributeValue.M) container).values());
            if (last) {
                if (value == null) {
                    copy.remove(n.text());
                } else {
                    copy.put(n.text(), value);
                }
            } else {
                AttributeValue child = copy.get(n.text());
                if (child == null) {
                    throw invalidPath();
                }
                copy.put(n.text(), writeInto(child, path, i + 1, value));
            }
            return AttributeValue.m(copy);
        }
        int index = ((PathElement.Index) step).index();
        if (container.type() != AttributeType.L) {
            throw invalidPath();
        }
        List<AttributeValue> copy = new ArrayList<>(((AttributeValue.L) container).values());
        if (last) {
            writeListElement(copy, index, value);
        } else {
            if (index >= copy.size()) {
                throw invalidPath();
            }
            copy.set(index, writeInto(copy.get(index), path, i + 1, value));
        }
        return AttributeValue.l(copy);
    }

    /** SET past the end appends; REMOVE past the end does nothing; REMOVE shifts later elements down. */
    private static void writeListElement(List<AttributeValue> list, int index, @Nullable AttributeValue value) {
        if (value == null) {
            if (index < list.size()) {
                list.remove(index);
            }
        } else if (index < list.size()) {
            list.set(index, value);
        } else {
            list.add(value);
        }
    }

    /** A total order on paths: element by element, names by text before indexes by number. */
    static int comparePaths(Operand.Path a, Operand.Path b) {
        List<PathElement> x = a.elements();
        List<PathElement> y = b.elements();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = compareElements(x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    }

    private static int compareElements(PathElement p, PathElement q) {
        if (p instanceof PathElement.Index pi) {
            return q instanceof PathElement.Index qi ? Integer.compare(pi.index(), qi.index()) : 1;
        }
        return q instanceof PathElement.Name qn ? ((PathElement.Name) p).text().compareTo(qn.text()) : -1;
    }

    /** Orders paths so that, among siblings in one list, lower indexes sort first. */
    static int compareForRemoval(Operand.Path a, Operand.Path b) {
        List<PathElement> x = a.elements();
        List<PathElement> y = b.elements();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            PathElement p = x.get(i);
            PathElement q = y.get(i);
            if (p instanceof PathElement.Index pi && q instanceof PathElement.Index qi && pi.index() != qi.index()) {
                return Integer.compare(pi.index(), qi.index());
            }
            if (!p.equals(q)) {
                return 0;
            }
        }
        return 0;
    }

    /** DynamoDB sends this one bare, without the "Invalid UpdateExpression: " prefix. */
    static DynamoException invalidPath() {
        return DynamoException.validation("The document path provided in the update expression is invalid for update");
    }
}
