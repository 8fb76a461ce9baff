package dev.kumiko.engine.item;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.check.ItemNames;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.check.KeyPathCheck;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.failure.ConflictRetry;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.LegacyExpressions;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** PutItem, GetItem and DeleteItem; UpdateItem lives in {@link UpdateItemOperation}. */
public final class ItemOperations {
    private final ItemAccess access;
    private final ItemWriter writer;
    private final UpdateItemOperation update;
    private final BatchWriteOperation batchWrite;
    private final BatchGetOperation batchGet;
    private final ThroughputLimiter limiter;
    private final WriteThroughput throughput;

    public ItemOperations(Catalog catalog, Store store, ItemWriter writer, ThroughputLimiter limiter) {
        this.access = new ItemAccess(catalog, store);
        this.writer = writer;
        this.limiter = limiter;
        this.throughput = new WriteThroughput(limiter);
        this.update = new UpdateItemOperation(access, writer, throughput);
        this.batchWrite = new BatchWriteOperation(access, writer, limiter);
        this.batchGet = new BatchGetOperation(access, limiter);
    }

    public ItemResult putItem(ItemRequests.PutItem r) {
        TableNames.resolve(r.tableName(), "tableName");
        checkReturnValuesOldOrNone(r.returnValues());
        // What needs no table is refused first, as DynamoDB does for a table that does not exist.
        WritePlan expr = WritePlan.of(r.conditions(), null, null);
        long size = ItemSize.of(r.item());
        if (size > ItemSize.ITEM_SIZE_BYTES_MAX) {
            throw DynamoException.validation("Item size has exceeded the maximum allowed size");
        }
        ItemNames.check(r.item());
        Table table = access.table(r.tableName());
        TableDescriptor d = table.descriptor();
        KeyCheck.itemKeys(d, r.item());
        expr.checkKeyPaths(d);
        IndexKeyCheck.item(d, r.item());
        byte[] key = ItemAccess.storageKey(d, r.item());
        throughput.admit(table, r.item());
        Written w = ConflictRetry.singleItem(() -> {
            try (Transaction txn = access.begin(key)) {
                Map<String, AttributeValue> read = ItemAccess.read(txn, key);
                throughput.checkCondition(table, r.item(), expr, read, r.returnValuesOnConditionCheckFailure(), size);
                throughput.admitIndexWrites(table, read, r.item());
                return new Written(read, writer.commit(txn, table, key, read, r.item(), size));
            }
        });
        Map<String, AttributeValue> old = w.old();
        WriteOutcome outcome = w.outcome();
        long billed = Math.max(size, outcome.oldItemBytes());
        CapacityTally units = CapacityUnits.write(d.tableName(), billed, outcome.indexChanges());
        throughput.charge(table, r.item(), units);
        return new ItemResult(
                r.returnValues() == ReturnValue.ALL_OLD ? old : null,
                units.report(r.returnConsumedCapacity()),
                ItemCollectionMetrics.of(
                        r.returnItemCollectionMetrics(), d, d.hashKeyOf(r.item()), outcome.collectionBytes()));
    }

    public ItemResult getItem(ItemRequests.GetItem r) {
        String name = TableNames.resolve(r.tableName(), "tableName");
        if (r.attributesToGet() != null) {
            LegacyExpressions.checkAttributesToGet(r.attributesToGet());
            LegacyExpressions.checkNotMixed(
                    List.of("AttributesToGet"),
                    r.projectionExpression() == null ? List.of() : List.of("ProjectionExpression"));
        }
        RequestExpressions expr = RequestExpressions.builder()
                .projectionExpression(r.projectionExpression())
                .expressionAttributeNames(r.expressionAttributeNames())
                .build();
        Table table = access.table(name);
        TableDescriptor d = table.descriptor();
        KeyCheck.key(d, r.key());
        KeyPathCheck.check(d, expr);
        AttributeValue partitionKey = d.hashKeyOf(r.key());
        limiter.admitRead(table, null, partitionKey, r.key());
        Map<String, AttributeValue> item = access.read(ItemAccess.storageKey(d, r.key()));
        boolean consistent = Boolean.TRUE.equals(r.consistentRead());
        double units = CapacityUnits.read(item == null ? 0 : ItemSize.of(item), consistent);
        limiter.chargeRead(table, null, partitionKey, new CapacityTally(d.tableName(), true).addTable(units));
        Map<String, AttributeValue> returned = item == null
                ? null
                : r.attributesToGet() != null
                        ? LegacyExpressions.project(LegacyExpressions.attributesToGet(r.attributesToGet()), item)
                        : expr.project(item);
        return new ItemResult(returned, CapacityUnits.report(r.returnConsumedCapacity(), d.tableName(), units, true));
    }

    public ItemResult updateItem(ItemRequests.UpdateItem r) {
        return update.apply(r);
    }

    public BatchResults.BatchWrite batchWriteItem(BatchRequests.BatchWrite r) {
        return batchWrite.apply(r);
    }

    public BatchResults.BatchGet batchGetItem(BatchRequests.BatchGet r) {
        return batchGet.apply(r);
    }

    public ItemResult deleteItem(ItemRequests.DeleteItem r) {
        TableNames.resolve(r.tableName(), "tableName");
        checkReturnValuesOldOrNone(r.returnValues());
        WritePlan expr = WritePlan.of(r.conditions(), null, null);
        Table table = access.table(r.tableName());
        TableDescriptor d = table.descriptor();
        KeyCheck.key(d, r.key());
        expr.checkKeyPaths(d);
        byte[] key = ItemAccess.storageKey(d, r.key());
        throughput.admit(table, r.key());
        Written w = ConflictRetry.singleItem(() -> {
            try (Transaction txn = access.begin(key)) {
                Map<String, AttributeValue> read = ItemAccess.read(txn, key);
                throughput.checkCondition(table, r.key(), expr, read, r.returnValuesOnConditionCheckFailure(), 0);
                throughput.admitIndexWrites(table, read, null);
                return new Written(read, writer.commit(txn, table, key, read, null, 0));
            }
        });
        Map<String, AttributeValue> old = w.old();
        WriteOutcome outcome = w.outcome();
        CapacityTally units = CapacityUnits.write(d.tableName(), outcome.oldItemBytes(), outcome.indexChanges());
        throughput.charge(table, r.key(), units);
        return new ItemResult(
                r.returnValues() == ReturnValue.ALL_OLD ? old : null,
                units.report(r.returnConsumedCapacity()),
                ItemCollectionMetrics.of(
                        r.returnItemCollectionMetrics(), d, d.hashKeyOf(r.key()), outcome.collectionBytes()));
    }

    /** What a put's or delete's cycle read (for ALL_OLD) and what its commit wrote. */
    private record Written(@Nullable Map<String, AttributeValue> old, WriteOutcome outcome) {}

    private static void checkReturnValuesOldOrNone(@Nullable ReturnValue returnValues) {
        if (returnValues != null && returnValues != ReturnValue.NONE && returnValues != ReturnValue.ALL_OLD) {
            throw DynamoException.validation("ReturnValues can only be ALL_OLD or NONE");
        }
    }
}
