package dev.kumiko.engine.index;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.keys.IndexKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What an index holds for an item: its entry key, and the projected attributes. Pure functions of
 * the table, the index and the item.
 */
public final class IndexEntries {
    private IndexEntries() {}

    /**
     * The storage key of item's entry in index x, or null when the item lacks one of x's key
     * attributes: such items are not in the index (a sparse index). Writes reject wrong-typed index
     * keys up front ({@link IndexKeyCheck}); an item written before its index existed may still
     * hold one, and like DynamoDB's backfill, Kumiko leaves such an item out of the index.
     */
    public static byte @Nullable [] key(TableDescriptor t, IndexDescriptor x, Map<String, AttributeValue> item) {
        List<AttributeValue> hash = new ArrayList<>(1);
        List<AttributeValue> range = new ArrayList<>(1);
        for (KeySchemaElement k : x.keySchema()) {
            AttributeValue v = item.get(k.attributeName());
            if (v == null || v.type() != t.attributeType(k.attributeName()) || isEmpty(v)) {
                return null;
            }
            (k.keyType() == KeyType.HASH ? hash : range).add(v);
        }
        String tableRange = t.rangeKeyName();
        return IndexKey.of(x.id(), hash, range, t.hashKeyOf(item), tableRange == null ? null : item.get(tableRange));
    }

    /** The entry's attributes: table and index keys, plus what the projection names. */
    public static Map<String, AttributeValue> project(
            TableDescriptor t, IndexDescriptor x, Map<String, AttributeValue> item) {
        if (projectsAll(x)) {
            return item;
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        copy(item, t.hashKeyName(), out);
        if (t.rangeKeyName() != null) {
            copy(item, t.rangeKeyName(), out);
        }
        for (KeySchemaElement k : x.keySchema()) {
            copy(item, k.attributeName(), out);
        }
        List<String> nonKey = x.projection().nonKeyAttributes();
        if (nonKey != null) {
            for (String name : nonKey) {
                copy(item, name, out);
            }
        }
        return out;
    }

    public static boolean projectsAll(IndexDescriptor x) {
        return x.projection().projectionType() == ProjectionType.ALL;
    }

    /** Whether the index stores this top-level attribute (keys always; others by projection). */
    public static boolean projects(TableDescriptor t, IndexDescriptor x, String attributeName) {
        if (projectsAll(x) || t.isKeyAttribute(attributeName) || x.isKeyAttribute(attributeName)) {
            return true;
        }
        List<String> nonKey = x.projection().nonKeyAttributes();
        return nonKey != null && nonKey.contains(attributeName);
    }

    private static boolean isEmpty(AttributeValue v) {
        return (v instanceof AttributeValue.S s && s.value().isEmpty())
                || (v instanceof AttributeValue.B b && b.value().length == 0);
    }

    private static void copy(Map<String, AttributeValue> from, String name, Map<String, AttributeValue> to) {
        AttributeValue v = from.get(name);
        if (v != null) {
            to.put(name, v);
        }
    }
}
