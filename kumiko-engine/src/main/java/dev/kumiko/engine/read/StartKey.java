package dev.kumiko.engine.read;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.item.KeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import java.util.Map;

/** ExclusiveStartKey: must be the table's full primary key, typed right; DynamoDB prefixes the reason. */
final class StartKey {
    private StartKey() {}

    /** The storage key of a valid ExclusiveStartKey, or null when none was given. */
    static byte[] of(TableDescriptor t, Map<String, AttributeValue> exclusiveStartKey) {
        if (exclusiveStartKey == null) {
            return null;
        }
        try {
            KeyCheck.key(t, exclusiveStartKey);
        } catch (DynamoException e) {
            throw DynamoException.validation("The provided starting key is invalid: " + e.getMessage());
        }
        String range = t.rangeKeyName();
        return ItemKey.of(t.id(), exclusiveStartKey.get(t.hashKeyName()),
                range == null ? null : exclusiveStartKey.get(range));
    }
}
