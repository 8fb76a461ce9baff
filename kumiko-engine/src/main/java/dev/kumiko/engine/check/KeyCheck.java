package dev.kumiko.engine.check;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.Map;

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
        int expectedCount = t.rangeKeyName() == null ? 1 : 2;
        if (key.size() != expectedCount) {
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

    public static DynamoException schemaMismatch() {
        return DynamoException.validation("The provided key element does not match the schema");
    }

    /** An empty string or binary key value; transactions refuse it up front, before any action runs. */
    public static void checkNotEmpty(String name, AttributeValue v) {
        boolean emptyString = v instanceof AttributeValue.S s && s.value().isEmpty();
        boolean emptyBinary = v instanceof AttributeValue.B b && b.value().length == 0;
        if (emptyString) {
            throw DynamoException.validation("One or more parameter values are not valid. The AttributeValue for a "
                    + "key attribute cannot contain an empty string value. Key: " + name);
        }
        if (emptyBinary) {
            throw DynamoException.validation("One or more parameter values are not valid. The AttributeValue for a "
                    + "key attribute cannot contain an empty binary value. Key: " + name);
        }
    }

    private static void checkSizes(TableDescriptor t, Map<String, AttributeValue> item) {
        if (ItemSize.valueBytes(item.get(t.hashKeyName())) > HASH_KEY_BYTES_MAX) {
            // "of2048" without a space is DynamoDB's own text.
            throw DynamoException.invalidParameter(
                    "Size of hashkey has exceeded the maximum size limit of" + HASH_KEY_BYTES_MAX + " bytes");
        }
        String range = t.rangeKeyName();
        if (range != null && ItemSize.valueBytes(item.get(range)) > RANGE_KEY_BYTES_MAX) {
            throw DynamoException.invalidParameter("Aggregated size of all range keys has exceeded the size limit of "
                    + RANGE_KEY_BYTES_MAX + " bytes");
        }
    }
}
