package dev.kumiko.engine.txn;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Key checks inside a transaction, split the way DynamoDB splits them (captured against AWS,
 * docs/notes/error-messages.md): an empty string or binary key value refuses the whole request
 * with a ValidationException before anything runs, while a key of the wrong type or shape cancels
 * the transaction with a ValidationError reason for that action, worded as PutItem words it for an
 * item and as GetItem words it for a Key.
 */
final class TransactKeys {
    private TransactKeys() {}

    /** The ValidationError message for a Put item's keys and index keys, or null when they are valid. */
    static @Nullable String itemProblem(TableDescriptor d, Map<String, AttributeValue> item) {
        refuseEmpty(d, item);
        try {
            KeyCheck.itemKeys(d, item);
            // Index key problems cancel the action too (UNVERIFIED: by analogy with table keys).
            IndexKeyCheck.item(d, item);
            return null;
        } catch (DynamoException e) {
            return e.getMessage();
        }
    }

    /** The ValidationError message for a Key member, or null when it matches the schema. */
    static @Nullable String keyProblem(TableDescriptor d, Map<String, AttributeValue> key) {
        refuseEmpty(d, key);
        try {
            KeyCheck.key(d, key);
            return null;
        } catch (DynamoException e) {
            return e.getMessage();
        }
    }

    private static void refuseEmpty(TableDescriptor d, Map<String, AttributeValue> attributes) {
        refuseEmpty(d.hashKeyName(), attributes);
        if (d.rangeKeyName() != null) {
            refuseEmpty(d.rangeKeyName(), attributes);
        }
    }

    private static void refuseEmpty(String name, Map<String, AttributeValue> attributes) {
        AttributeValue v = attributes.get(name);
        if (v != null) {
            KeyCheck.checkNotEmpty(name, v);
        }
    }

    /** The item's key attributes alone (an Update creates a missing item from them). */
    static Map<String, AttributeValue> keyOf(TableDescriptor d, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new LinkedHashMap<>(4);
        key.put(d.hashKeyName(), item.get(d.hashKeyName()));
        if (d.rangeKeyName() != null) {
            key.put(d.rangeKeyName(), item.get(d.rangeKeyName()));
        }
        return key;
    }

    static byte[] storageKey(TableDescriptor d, Map<String, AttributeValue> item) {
        String range = d.rangeKeyName();
        return ItemKey.of(d.id(), d.hashKeyOf(item), range == null ? null : item.get(range));
    }
}
