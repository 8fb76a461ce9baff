package dev.kumiko.engine.check;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.Map;
import java.util.Objects;

/** Checks key attributes against the table's schema with DynamoDB's messages. */
public final class KeyCheck {
    public static final int HASH_KEY_BYTES_MAX = 2048;
    public static final int RANGE_KEY_BYTES_MAX = 1024;

    private KeyCheck() {}

    /** A full item (PutItem): both key attributes present, of the declared type, within limits. */
    public static void itemKeys(TableDescriptor t, Map<String, AttributeValue> item) {
        itemKey(t, item, t.hashKeyName());
        if (t.rangeKeyName() != null) {
            itemKey(t, item, t.rangeKeyName());
        }
        checkSizes(t, item);
    }

    private static void itemKey(TableDescriptor t, Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        if (v == null) {
            throw DynamoException.invalidParameter("Missing the key " + name + " in the item");
        }
        AttributeType expected = t.attributeType(name);
        if (v.type() != expected) {
            throw DynamoException.invalidParameter(
                    "Type mismatch for key " + name + " expected: " + expected + " actual: " + v.type());
        }
        checkNotEmpty(name, v);
    }

    /** A Key member (GetItem, DeleteItem, UpdateItem): exactly the key attributes, typed right. */
    public static void key(TableDescriptor t, Map<String, AttributeValue> key) {
        if (key.size() != keyCount(t)) {
            throw schemaMismatch();
        }
        keyAttribute(t, key, t.hashKeyName());
        if (t.rangeKeyName() != null) {
            keyAttribute(t, key, t.rangeKeyName());
        }
        checkSizes(t, key);
    }

    private static void keyAttribute(TableDescriptor t, Map<String, AttributeValue> key, String name) {
        AttributeValue v = key.get(name);
        if (v == null || v.type() != t.attributeType(name)) {
            throw schemaMismatch();
        }
        checkNotEmpty(name, v);
    }

    /**
     * Whether {@link #key} accepts this key, without an exception: for a caller that picks a path
     * by it (a PartiQL SELECT of one item runs as a GetItem only when GetItem's key checks pass,
     * since they word their errors unlike the Query it would otherwise be).
     */
    public static boolean accepts(TableDescriptor t, Map<String, AttributeValue> key) {
        return key.size() == keyCount(t)
                && acceptsAttribute(t, key, t.hashKeyName())
                && (t.rangeKeyName() == null || acceptsAttribute(t, key, t.rangeKeyName()));
    }

    private static boolean acceptsAttribute(TableDescriptor t, Map<String, AttributeValue> key, String name) {
        AttributeValue v = key.get(name);
        return v != null
                && v.type() == t.attributeType(name)
                && !isEmpty(v)
                && ItemSize.valueBytes(v) <= bytesMax(t, name);
    }

    private static int keyCount(TableDescriptor t) {
        return t.rangeKeyName() == null ? 1 : 2;
    }

    private static boolean isEmpty(AttributeValue v) {
        return (v instanceof AttributeValue.S s && s.value().isEmpty())
                || (v instanceof AttributeValue.B b && b.value().length == 0);
    }

    private static int bytesMax(TableDescriptor t, String name) {
        return name.equals(t.hashKeyName()) ? HASH_KEY_BYTES_MAX : RANGE_KEY_BYTES_MAX;
    }

    public static DynamoException schemaMismatch() {
        return DynamoException.validation("The provided key element does not match the schema");
    }

    /** An empty string or binary key value; transactions refuse it up front, before any action runs. */
    public static void checkNotEmpty(String name, AttributeValue v) {
        if (!isEmpty(v)) {
            return;
        }
        if (v instanceof AttributeValue.S) {
            throw DynamoException.validation("One or more parameter values are not valid. The AttributeValue for a "
                    + "key attribute cannot contain an empty string value. Key: " + name);
        }
        throw DynamoException.validation("One or more parameter values are not valid. The AttributeValue for a "
                + "key attribute cannot contain an empty binary value. Key: " + name);
    }

    private static void checkSizes(TableDescriptor t, Map<String, AttributeValue> item) {
        // Called once the key attributes were found present.
        if (ItemSize.valueBytes(t.hashKeyOf(item)) > bytesMax(t, t.hashKeyName())) {
            // "of2048" without a space is DynamoDB's own text.
            throw DynamoException.invalidParameter(
                    "Size of hashkey has exceeded the maximum size limit of" + HASH_KEY_BYTES_MAX + " bytes");
        }
        String range = t.rangeKeyName();
        if (range != null
                && ItemSize.valueBytes(Objects.requireNonNull(item.get(range), "sort key")) > bytesMax(t, range)) {
            throw DynamoException.invalidParameter("Aggregated size of all range keys has exceeded the size limit of "
                    + RANGE_KEY_BYTES_MAX + " bytes");
        }
    }
}
