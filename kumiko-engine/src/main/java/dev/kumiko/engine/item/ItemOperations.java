package dev.kumiko.engine.item;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.Constraints;
import dev.kumiko.engine.Enums;
import dev.kumiko.engine.LockStripes;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.control.TableNames;
import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Store;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/** PutItem, GetItem and DeleteItem. */
public final class ItemOperations {
    private final Catalog catalog;
    private final Store store;
    private final LockStripes locks;
    private final ItemWriter writer;

    public ItemOperations(Catalog catalog, Store store, LockStripes locks, ItemWriter writer) {
        this.catalog = catalog;
        this.store = store;
        this.locks = locks;
        this.writer = writer;
    }

    public ItemResult putItem(ItemRequests.PutItem r) {
        checkWriteMembers(r.tableName(), r.returnValues(), r.returnConsumedCapacity(),
                r.returnItemCollectionMetrics(), r.returnValuesOnConditionCheckFailure(), "item", r.item());
        checkReturnValuesOldOrNone(r.returnValues());
        Unsupported.conditions(r.conditions());
        Table table = dataTable(r.tableName());
        TableDescriptor d = table.descriptor();
        KeyCheck.itemKeys(d, r.item());
        long size = ItemSize.of(r.item());
        if (size > ItemSize.ITEM_SIZE_BYTES_MAX) {
            throw DynamoException.validation("Item size has exceeded the maximum allowed size");
        }
        byte[] key = ItemKey.of(d.id(), r.item().get(d.hashKeyName()), rangeOf(d, r.item()));
        Map<String, AttributeValue> old;
        ReentrantLock lock = locks.lockFor(key);
        try {
            old = read(key);
            writer.commit(table, key, old, r.item());
        } finally {
            lock.unlock();
        }
        long billed = Math.max(size, old == null ? 0 : ItemSize.of(old));
        return new ItemResult("ALL_OLD".equals(r.returnValues()) ? old : null,
                CapacityUnits.report(r.returnConsumedCapacity(), d.tableName(), CapacityUnits.write(billed), false));
    }

    public ItemResult getItem(ItemRequests.GetItem r) {
        Constraints c = new Constraints();
        String name = TableNames.resolve(r.tableName(), "tableName");
        c.notNull("key", r.key());
        c.enumValue("returnConsumedCapacity", r.returnConsumedCapacity(), Enums.RETURN_CONSUMED_CAPACITY);
        c.throwIfAny();
        Unsupported.projection(r.projectionExpression(), r.expressionAttributeNames(), r.attributesToGet());
        Table table = lookup(name);
        TableDescriptor d = table.descriptor();
        KeyCheck.key(d, r.key());
        Map<String, AttributeValue> item = read(ItemKey.of(d.id(), r.key().get(d.hashKeyName()), rangeOf(d, r.key())));
        boolean consistent = Boolean.TRUE.equals(r.consistentRead());
        double units = CapacityUnits.read(item == null ? 0 : ItemSize.of(item), consistent);
        return new ItemResult(item, CapacityUnits.report(r.returnConsumedCapacity(), d.tableName(), units, true));
    }

    public ItemResult deleteItem(ItemRequests.DeleteItem r) {
        checkWriteMembers(r.tableName(), r.returnValues(), r.returnConsumedCapacity(),
                r.returnItemCollectionMetrics(), r.returnValuesOnConditionCheckFailure(), "key", r.key());
        checkReturnValuesOldOrNone(r.returnValues());
        Unsupported.conditions(r.conditions());
        Table table = dataTable(r.tableName());
        TableDescriptor d = table.descriptor();
        KeyCheck.key(d, r.key());
        byte[] key = ItemKey.of(d.id(), r.key().get(d.hashKeyName()), rangeOf(d, r.key()));
        Map<String, AttributeValue> old;
        ReentrantLock lock = locks.lockFor(key);
        try {
            old = read(key);
            writer.commit(table, key, old, null);
        } finally {
            lock.unlock();
        }
        double units = CapacityUnits.write(old == null ? 0 : ItemSize.of(old));
        return new ItemResult("ALL_OLD".equals(r.returnValues()) ? old : null,
                CapacityUnits.report(r.returnConsumedCapacity(), d.tableName(), units, false));
    }

    private void checkWriteMembers(String tableName, String returnValues, String returnConsumedCapacity,
            String returnItemCollectionMetrics, String returnValuesOnConditionCheckFailure, String itemPath,
            Map<String, AttributeValue> item) {
        TableNames.resolve(tableName, "tableName");
        Constraints c = new Constraints();
        c.notNull(itemPath, item);
        c.enumValue("returnValues", returnValues, Enums.RETURN_VALUE);
        c.enumValue("returnConsumedCapacity", returnConsumedCapacity, Enums.RETURN_CONSUMED_CAPACITY);
        c.enumValue("returnItemCollectionMetrics", returnItemCollectionMetrics, Enums.RETURN_ITEM_COLLECTION_METRICS);
        c.enumValue("returnValuesOnConditionCheckFailure", returnValuesOnConditionCheckFailure,
                Enums.RETURN_VALUES_ON_CONDITION_CHECK_FAILURE);
        c.throwIfAny();
    }

    private static void checkReturnValuesOldOrNone(String returnValues) {
        if (returnValues != null && !"NONE".equals(returnValues) && !"ALL_OLD".equals(returnValues)) {
            throw DynamoException.validation("ReturnValues can only be ALL_OLD or NONE");
        }
    }

    private Table dataTable(String nameOrArn) {
        return lookup(TableNames.resolve(nameOrArn, "tableName"));
    }

    /** Data-plane lookups answer DynamoDB's short not-found message. */
    private Table lookup(String name) {
        Table t = catalog.get(name);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        return t;
    }

    private static AttributeValue rangeOf(TableDescriptor d, Map<String, AttributeValue> item) {
        String range = d.rangeKeyName();
        return range == null ? null : item.get(range);
    }

    private Map<String, AttributeValue> read(byte[] key) {
        byte[] bytes = store.get(key);
        return bytes == null ? null : ItemCodec.decode(bytes);
    }
}
