package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.failure.ConflictRetry;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.UpdateResult;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.storage.Transaction;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * UpdateItem: one read and one write of the store in the item's store transaction. A missing item is created
 * from its key, except when the update leaves nothing but the key (e.g. only REMOVE), where
 * DynamoDB writes nothing.
 */
final class UpdateItemOperation {
    private final ItemAccess access;
    private final ItemWriter writer;
    private final WriteThroughput throughput;

    UpdateItemOperation(ItemAccess access, ItemWriter writer, WriteThroughput throughput) {
        this.access = access;
        this.writer = writer;
        this.throughput = throughput;
    }

    ItemResult apply(ItemRequests.UpdateItem r) {
        TableNames.resolve(r.tableName(), "tableName");
        WritePlan expr = WritePlan.of(r.conditions(), r.updateExpression(), r.attributeUpdates());
        Table table = access.table(r.tableName());
        TableDescriptor d = table.descriptor();
        expr.checkKeys(d);
        expr.checkKeyPaths(d);
        KeyCheck.key(d, r.key());
        byte[] key = ItemAccess.storageKey(d, r.key());
        throughput.admit(table, r.key());
        Updated u = ConflictRetry.singleItem(() -> {
            try (Transaction txn = access.begin(key)) {
                return readModifyWrite(txn, r, table, expr, key);
            }
        });
        Map<String, AttributeValue> old = u.old();
        Map<String, AttributeValue> updated = u.updated();
        UpdateResult result = u.result();
        long updatedBytes = u.updatedBytes();
        WriteOutcome outcome = u.outcome();
        boolean createsNothing = u.createsNothing();
        long billed = Math.max(updatedBytes, outcome.oldItemBytes());
        CapacityTally units = CapacityUnits.write(d.tableName(), billed, outcome.indexChanges());
        throughput.charge(table, r.key(), units);
        return new ItemResult(
                createsNothing ? null : returned(r.returnValues(), old, updated, result, outcome),
                units.report(r.returnConsumedCapacity()),
                ItemCollectionMetrics.of(
                        r.returnItemCollectionMetrics(), d, d.hashKeyOf(r.key()), outcome.collectionBytes()));
    }

    /** What one read-modify-write cycle read, made and wrote. */
    private record Updated(
            @Nullable Map<String, AttributeValue> old,
            Map<String, AttributeValue> updated,
            @Nullable UpdateResult result,
            long updatedBytes,
            WriteOutcome outcome,
            boolean createsNothing) {}

    private Updated readModifyWrite(
            Transaction txn, ItemRequests.UpdateItem r, Table table, WritePlan expr, byte[] key) {
        TableDescriptor d = table.descriptor();
        // Stays encoded: the condition, the update and the index planning each read a few of its
        // attributes by name, and the new item keeps the untouched ones as stored bytes.
        Map<String, AttributeValue> old = ItemAccess.read(txn, key);
        throughput.checkCondition(table, r.key(), expr, old, r.returnValuesOnConditionCheckFailure(), 0);
        // Removing from an item that does not exist changes nothing, even a nested path whose parent
        // is missing (which fails on an existing item).
        boolean removesFromNothing = old == null && expr.hasUpdate() && expr.onlyRemoves();
        UpdateResult result = expr.hasUpdate() && !removesFromNothing ? expr.apply(old == null ? r.key() : old) : null;
        Map<String, AttributeValue> updated = result == null ? (old == null ? r.key() : old) : result.item();
        long updatedBytes = ItemSize.of(updated);
        if (updatedBytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
            throw DynamoException.validation("Item size to update has exceeded the maximum allowed size");
        }
        IndexKeyCheck.updatedItem(d, updated);
        WriteOutcome outcome = WriteOutcome.NOTHING;
        boolean createsNothing = removesFromNothing
                || (old == null && result != null && updated.size() == r.key().size());
        if (!createsNothing) {
            throughput.admitIndexWrites(table, old, updated);
            outcome = writer.commit(txn, table, key, old, ensureKey(updated, r.key()), updatedBytes);
        }
        return new Updated(old, updated, result, updatedBytes, outcome, createsNothing);
    }

    /** The key attributes are never changed by an update (the parser refuses it); assert it. */
    private static Map<String, AttributeValue> ensureKey(
            Map<String, AttributeValue> item, Map<String, AttributeValue> key) {
        for (Map.Entry<String, AttributeValue> e : key.entrySet()) {
            assert e.getValue().equals(item.get(e.getKey())) : "update changed key attribute " + e.getKey();
        }
        return item;
    }

    /**
     * The item or attributes ReturnValues asks for. ALL_OLD is the item as read and ALL_NEW the item
     * as written, both in their stored form when there is one, so that the answer's JSON is written
     * from their bytes: a map of the whole updated item would decode every attribute the update did
     * not touch.
     */
    private static @Nullable Map<String, AttributeValue> returned(
            @Nullable ReturnValue returnValues,
            @Nullable Map<String, AttributeValue> old,
            Map<String, AttributeValue> updated,
            @Nullable UpdateResult result,
            WriteOutcome outcome) {
        if (returnValues == null || returnValues == ReturnValue.NONE) {
            return null;
        }
        Map<String, AttributeValue> out = switch (returnValues) {
            case ALL_OLD -> old;
            case ALL_NEW -> outcome.storedNewItem() != null ? EncodedItem.of(outcome.storedNewItem()) : updated;
            case UPDATED_OLD -> old == null || result == null ? null : result.updatedOld(old);
            case UPDATED_NEW -> result == null ? null : result.updatedNew();
            case NONE -> throw new AssertionError(returnValues);
        };
        if (out == null || out.isEmpty()) {
            return null;
        }
        return out instanceof EncodedItem ? out : new LinkedHashMap<>(out);
    }
}
