package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.LockStripes;
import dev.kumiko.engine.TransactionHolds;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.UpdateResult;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * UpdateItem: one read and one write of the store under the item's lock. A missing item is created
 * from its key, except when the update leaves nothing but the key (e.g. only REMOVE), where
 * DynamoDB writes nothing.
 */
final class UpdateItemOperation {
    private final ItemAccess access;
    private final LockStripes locks;
    private final TransactionHolds holds;
    private final ItemWriter writer;
    private final WriteThroughput throughput;

    UpdateItemOperation(ItemAccess access, LockStripes locks, TransactionHolds holds, ItemWriter writer,
            WriteThroughput throughput) {
        this.access = access;
        this.locks = locks;
        this.holds = holds;
        this.writer = writer;
        this.throughput = throughput;
    }

    ItemResult apply(ItemRequests.UpdateItem r) {
        ItemAccess.checkWriteMembers(r.tableName(), r.returnValues(), r.returnConsumedCapacity(),
                r.returnItemCollectionMetrics(), r.returnValuesOnConditionCheckFailure(), "key", r.key());
        WritePlan expr = WritePlan.of(r.conditions(), r.updateExpression(), r.attributeUpdates());
        Table table = access.table(r.tableName());
        TableDescriptor d = table.descriptor();
        expr.checkKeys(d);
        KeyCheck.key(d, r.key());
        byte[] key = ItemAccess.storageKey(d, r.key());
        throughput.admit(table, r.key());
        Map<String, AttributeValue> old;
        Map<String, AttributeValue> updated;
        UpdateResult result;
        long updatedBytes;
        WriteOutcome outcome = WriteOutcome.NOTHING;
        boolean createsNothing;
        holds.checkNotHeld(key);
        ReentrantLock lock = locks.lockFor(key);
        try {
            old = access.read(key);
            throughput.checkCondition(table, r.key(), expr, old, r.returnValuesOnConditionCheckFailure());
            // Removing from an item that does not exist changes nothing, even a nested path
            // whose parent is missing (which fails on an existing item).
            boolean removesFromNothing = old == null && expr.hasUpdate() && expr.onlyRemoves();
            result = expr.hasUpdate() && !removesFromNothing ? expr.apply(old == null ? r.key() : old) : null;
            updated = result == null ? (old == null ? r.key() : old) : result.item();
            updatedBytes = ItemSize.of(updated);
            if (updatedBytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
                throw DynamoException.validation("Item size to update has exceeded the maximum allowed size");
            }
            IndexKeyCheck.updatedItem(d, updated);
            createsNothing = removesFromNothing || old == null && result != null && updated.size() == r.key().size();
            if (!createsNothing) {
                throughput.admitIndexWrites(table, old, updated);
                outcome = writer.commit(table, key, old, ensureKey(updated, r.key()), updatedBytes);
            }
        } finally {
            lock.unlock();
        }
        long billed = Math.max(updatedBytes, outcome.oldItemBytes());
        CapacityTally units = CapacityUnits.write(d.tableName(), billed, outcome.indexChanges());
        throughput.charge(table, r.key(), units);
        return new ItemResult(createsNothing ? null : returned(r.returnValues(), old, updated, result),
                units.report(r.returnConsumedCapacity()),
                ItemCollectionMetrics.of(r.returnItemCollectionMetrics(), d, r.key().get(d.hashKeyName()),
                        outcome.collectionBytes()));
    }

    /** The key attributes are never changed by an update (the parser refuses it); assert it. */
    private static Map<String, AttributeValue> ensureKey(Map<String, AttributeValue> item,
            Map<String, AttributeValue> key) {
        for (Map.Entry<String, AttributeValue> e : key.entrySet()) {
            assert e.getValue().equals(item.get(e.getKey())) : "update changed key attribute " + e.getKey();
        }
        return item;
    }

    private static Map<String, AttributeValue> returned(String returnValues, Map<String, AttributeValue> old,
            Map<String, AttributeValue> updated, UpdateResult result) {
        if (returnValues == null || "NONE".equals(returnValues)) {
            return null;
        }
        Map<String, AttributeValue> out = switch (returnValues) {
            case "ALL_OLD" -> old;
            case "ALL_NEW" -> updated;
            case "UPDATED_OLD" -> old == null || result == null ? null : result.updatedOld(old);
            case "UPDATED_NEW" -> result == null ? null : result.updatedNew();
            default -> throw new AssertionError(returnValues);
        };
        return out == null || out.isEmpty() ? null : new LinkedHashMap<>(out);
    }
}
