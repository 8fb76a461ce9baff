package dev.kumiko.engine.item;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.failure.ConditionalCheckFailed;
import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Table lookup, member checks and item reads shared by the single-item operations. */
final class ItemAccess {
    private final Catalog catalog;
    private final Store store;

    ItemAccess(Catalog catalog, Store store) {
        this.catalog = catalog;
        this.store = store;
    }

    /** Data-plane lookups answer DynamoDB's short not-found message. */
    Table table(String nameOrArn) {
        Table t = catalog.get(TableNames.resolve(nameOrArn, "tableName"));
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        return t;
    }

    static byte[] storageKey(TableDescriptor d, Map<String, AttributeValue> item) {
        String range = d.rangeKeyName();
        return ItemKey.of(d.id(), d.hashKeyOf(item), range == null ? null : item.get(range));
    }

    @Nullable
    Map<String, AttributeValue> read(byte[] key) {
        return decode(store.get(key));
    }

    /** The item as the transaction sees it: the read a write's condition is checked against. */
    static @Nullable Map<String, AttributeValue> read(Transaction txn, byte[] key) {
        return decode(txn.get(key));
    }

    /** The items of keys, in their order (null where missing), from one store call. */
    Map<String, AttributeValue>[] readAll(byte[][] keys) {
        return decodeAll(store.getAll(keys));
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array is made raw and cast
    static Map<String, AttributeValue>[] decodeAll(byte[][] values) {
        Map<String, AttributeValue>[] items = new Map[values.length];
        for (int i = 0; i < values.length; i++) {
            items[i] = decode(values[i]);
        }
        return items;
    }

    private static @Nullable Map<String, AttributeValue> decode(byte @Nullable [] bytes) {
        // Lazily decoded: a GetItem of the whole item writes the stored bytes straight to JSON.
        return bytes == null ? null : EncodedItem.of(bytes);
    }

    /** Begins the read-modify-write transaction of one item. */
    Transaction begin(byte[] key) {
        return store.begin(key);
    }

    Store store() {
        return store;
    }

    /** Fails the write when the condition does not hold on the current item (absent: empty). */
    static void checkCondition(
            WritePlan plan,
            @Nullable Map<String, AttributeValue> current,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
        if (plan.test(current == null ? Map.of() : current)) {
            return;
        }
        boolean returnOld = returnValuesOnConditionCheckFailure == ReturnValuesOnConditionCheckFailure.ALL_OLD;
        throw new ConditionalCheckFailed(returnOld ? current : null);
    }
}
