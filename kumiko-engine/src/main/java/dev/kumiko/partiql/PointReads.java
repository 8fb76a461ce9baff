package dev.kumiko.partiql;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.Map;

/**
 * A SELECT whose WHERE is exactly an equality on each of the table's key attributes, with nothing to
 * filter, no Limit and no NextToken, is a Query that answers at most one item; it runs as a GetItem,
 * which reads the item without planning a key condition and a page. Its answer is the Query's: the
 * item (or none), no NextToken, the same read units, the same projection and its errors.
 *
 * <p>Where the two word an error differently the statement stays a Query: a key value of the
 * wrong type, empty, or over the key size limits (GetItem's key checks run first and say so in
 * their own words).
 */
final class PointReads {
    private PointReads() {}

    /** Whether GetItem with this key answers exactly as the statement's Query would. */
    static boolean answersAsQuery(TableDescriptor t, Map<String, AttributeValue> key) {
        for (Map.Entry<String, AttributeValue> e : key.entrySet()) {
            int bytesMax = e.getKey().equals(t.hashKeyName()) ? KeyCheck.HASH_KEY_BYTES_MAX : KeyCheck.RANGE_KEY_BYTES_MAX;
            if (!plain(t, e.getKey(), e.getValue(), bytesMax)) {
                return false;
            }
        }
        return true;
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
