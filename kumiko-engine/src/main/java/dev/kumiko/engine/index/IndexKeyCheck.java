package dev.kumiko.engine.index;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.KeyType;
import java.util.Map;

/**
 * An item's index key attributes: absent is fine (the item is not indexed), but a present value
 * must have the type the attribute definitions give, must not be empty, and must fit the key size
 * limits. DynamoDB rejects the whole write otherwise; the messages are DynamoDB's as quoted in
 * user reports (docs/notes/error-messages.md), including NULL counting as a wrong type.
 */
public final class IndexKeyCheck {
    private IndexKeyCheck() {}

    /** A whole item as PutItem, BatchWriteItem or a transaction's Put gives it. */
    public static void item(TableDescriptor t, Map<String, AttributeValue> item) {
        check(t, item, false);
    }

    /**
     * An item as an update expression left it: DynamoDB words an empty index key differently
     * there (without IndexName and IndexKey), as captured from DynamoDB by third parties.
     */
    public static void updatedItem(TableDescriptor t, Map<String, AttributeValue> item) {
        check(t, item, true);
    }

    private static void check(TableDescriptor t, Map<String, AttributeValue> item, boolean byUpdate) {
        for (IndexDescriptor x : t.localSecondaryIndexes()) {
            index(t, x, item, byUpdate);
        }
        for (IndexDescriptor x : t.globalSecondaryIndexes()) {
            index(t, x, item, byUpdate);
        }
    }

    private static void index(
            TableDescriptor t, IndexDescriptor x, Map<String, AttributeValue> item, boolean byUpdate) {
        for (KeySchemaElement k : x.keySchema()) {
            String name = k.attributeName();
            AttributeValue v = item.get(name);
            if (v == null || t.isKeyAttribute(name)) {
                continue;
            }
            AttributeType expected = t.attributeType(name);
            if (v.type() != expected) {
                throw DynamoException.invalidParameter("Type mismatch for Index Key " + name + " Expected: " + expected
                        + " Actual: " + v.type() + " IndexName: " + x.indexName());
            }
            checkNotEmpty(x, name, v, byUpdate);
            int max = k.keyType() == KeyType.HASH ? KeyCheck.HASH_KEY_BYTES_MAX : KeyCheck.RANGE_KEY_BYTES_MAX;
            long size = ItemSize.valueBytes(v);
            if (size > max) {
                throw DynamoException.invalidParameter("Size limit exceeded for Index Key " + name + " Actual Size: "
                        + size + " bytes Max Size: " + max + " bytes IndexName: " + x.indexName());
            }
        }
    }

    /**
     * Whether the item's values for the index keys fit DynamoDB's key-size limits. A backfill skips
     * an item that does not (DynamoDB leaves it out of the index as a key violation) instead of
     * failing the whole index.
     */
    public static boolean fitsKeySizes(IndexDescriptor x, Map<String, AttributeValue> item) {
        for (KeySchemaElement k : x.keySchema()) {
            AttributeValue v = item.get(k.attributeName());
            int max = k.keyType() == KeyType.HASH ? KeyCheck.HASH_KEY_BYTES_MAX : KeyCheck.RANGE_KEY_BYTES_MAX;
            if (v != null && ItemSize.valueBytes(v) > max) {
                return false;
            }
        }
        return true;
    }

    private static void checkNotEmpty(IndexDescriptor x, String name, AttributeValue v, boolean byUpdate) {
        boolean emptyString = v instanceof AttributeValue.S s && s.value().isEmpty();
        boolean emptyBinary = v instanceof AttributeValue.B b && b.value().length == 0;
        if ((emptyString || emptyBinary) && byUpdate) {
            // The binary wording is by analogy with the captured string one (UNVERIFIED).
            throw DynamoException.validation("One or more parameter values are not valid. The update expression "
                    + "attempted to update a secondary index key to a value that is not supported. The AttributeValue "
                    + "for a key attribute cannot contain an empty " + (emptyString ? "string" : "binary") + " value.");
        }
        if (emptyString || emptyBinary) {
            // The binary wording is by analogy with the quoted string one (UNVERIFIED).
            throw DynamoException.validation("One or more parameter values are not valid. A value specified for a "
                    + "secondary index key is not supported. The AttributeValue for a key attribute cannot contain an "
                    + "empty " + (emptyString ? "string" : "binary") + " value. IndexName: " + x.indexName()
                    + ", IndexKey: " + name);
        }
    }
}
