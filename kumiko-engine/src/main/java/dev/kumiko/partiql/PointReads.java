package dev.kumiko.partiql;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.Operand;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When a SELECT reads one item by its key: its WHERE is exactly an equality on each of the table's
 * key attributes, with nothing to filter, no Limit and no NextToken. Such a Query answers at most
 * one item, so it runs as a GetItem, which reads the item without planning a key condition and a
 * page. Its answer is the Query's: the item (or none), no NextToken, the same read units.
 *
 * <p>A statement the two would answer differently stays a Query: a key value of the wrong type,
 * empty or over the key size limits (GetItem words those errors otherwise), and a projection of a
 * nested path (GetItem refuses one under a key attribute, a Query does not).
 */
final class PointReads {
    private PointReads() {}

    /** The item's key, or null when terms are not exactly one plain equality per key attribute. */
    static Map<String, AttributeValue> key(TableDescriptor t, List<Condition> terms) {
        int keyCount = t.rangeKeyName() == null ? 1 : 2;
        if (terms.size() != keyCount) {
            return null;
        }
        Map<String, AttributeValue> key = new LinkedHashMap<>(4);
        if (!put(key, t, t.hashKeyName(), terms, KeyCheck.HASH_KEY_BYTES_MAX)) {
            return null;
        }
        if (t.rangeKeyName() != null && !put(key, t, t.rangeKeyName(), terms, KeyCheck.RANGE_KEY_BYTES_MAX)) {
            return null;
        }
        return key;
    }

    /** Whether every projected path is a top-level attribute (or everything is projected). */
    static boolean projectsTopLevelOnly(List<Operand.Path> projection) {
        if (projection == null) {
            return true;
        }
        for (Operand.Path p : projection) {
            if (p.elements().size() != 1) {
                return false;
            }
        }
        return true;
    }

    private static boolean put(Map<String, AttributeValue> key, TableDescriptor t, String name, List<Condition> terms,
            int bytesMax) {
        for (Condition term : terms) {
            AttributeValue v = PqKeys.equality(term, name);
            if (v != null) {
                if (!plain(t, name, v, bytesMax)) {
                    return false;
                }
                key.put(name, v);
                return true;
            }
        }
        return false;
    }

    /** Of the key attribute's type, not empty, within its size limit. */
    private static boolean plain(TableDescriptor t, String name, AttributeValue v, int bytesMax) {
        if (v.type() != t.attributeType(name)) {
            return false;
        }
        if (v instanceof AttributeValue.S s && s.value().isEmpty()) {
            return false;
        }
        if (v instanceof AttributeValue.B b && b.value().length == 0) {
            return false;
        }
        return ItemSize.valueBytes(v) <= bytesMax;
    }
}
