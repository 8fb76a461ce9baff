package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.LockStripes;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BatchWriteItem: validates every request first (so a bad one writes nothing), then applies each
 * put or delete through {@link ItemWriter} under the locks of all its items. Nothing is throttled
 * yet, so UnprocessedItems is always empty.
 */
final class BatchWriteOperation {
    static final int REQUESTS_MAX = 25;

    private final ItemAccess access;
    private final LockStripes locks;
    private final ItemWriter writer;

    BatchWriteOperation(ItemAccess access, LockStripes locks, ItemWriter writer) {
        this.access = access;
        this.locks = locks;
        this.writer = writer;
    }

    /** One validated write; item is null for a delete, itemBytes its size (0 for a delete). */
    private record Write(Table table, byte[] key, Map<String, AttributeValue> partitionKey,
            Map<String, AttributeValue> item, long itemBytes) {}

    /** What the committed writes report: write units and item collection metrics per table. */
    private record Committed(Map<String, CapacityTally> units, Map<String, List<ItemCollectionMetrics>> metrics) {}

    BatchResults.BatchWrite apply(BatchRequests.BatchWrite r) {
        BatchChecks.requestItems(r.requestItems(), BatchChecks::size, REQUESTS_MAX, REQUESTS_MAX, "BatchWriteItem",
                r.returnConsumedCapacity());
        List<Write> writes = new ArrayList<>();
        r.requestItems().forEach((tableName, requests) -> {
            Table table = access.table(tableName);
            for (BatchRequests.WriteRequest w : requests) {
                writes.add(validated(table, w));
            }
        });
        BatchChecks.noDuplicates(writes.stream().map(Write::key).toList());
        Committed committed = commitAll(writes, r.returnItemCollectionMetrics());
        return new BatchResults.BatchWrite(Map.of(), capacity(r.returnConsumedCapacity(), committed.units()),
                "SIZE".equals(r.returnItemCollectionMetrics()) ? committed.metrics() : null);
    }

    private static Write validated(Table table, BatchRequests.WriteRequest w) {
        TableDescriptor d = table.descriptor();
        if ((w.put() == null) == (w.delete() == null)) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation("Supplied WriteRequest must contain exactly one of PutRequest or "
                    + "DeleteRequest");
        }
        if (w.put() != null) {
            KeyCheck.itemKeys(d, w.put());
            IndexKeyCheck.item(d, w.put());
            long bytes = ItemSize.of(w.put());
            if (bytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
                throw DynamoException.validation("Item size has exceeded the maximum allowed size");
            }
            return new Write(table, ItemAccess.storageKey(d, w.put()), w.put(), w.put(), bytes);
        }
        KeyCheck.key(d, w.delete());
        return new Write(table, ItemAccess.storageKey(d, w.delete()), w.delete(), null, 0);
    }

    /** Applies every write under all the items' locks. */
    private Committed commitAll(List<Write> writes, String returnItemCollectionMetrics) {
        byte[][] keys = writes.stream().map(Write::key).toArray(byte[][]::new);
        Map<String, CapacityTally> units = new LinkedHashMap<>();
        Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
        int[] stripes = locks.lockAll(keys);
        try {
            for (Write w : writes) {
                Map<String, AttributeValue> old = access.read(w.key());
                WriteOutcome outcome = writer.commit(w.table(), w.key(), old, w.item(), w.itemBytes());
                long billed = Math.max(w.itemBytes(), outcome.oldItemBytes());
                TableDescriptor d = w.table().descriptor();
                units.merge(d.tableName(), CapacityUnits.write(d.tableName(), billed, outcome.indexChanges()),
                        CapacityTally::addAll);
                ItemCollectionMetrics m = ItemCollectionMetrics.of(returnItemCollectionMetrics, d,
                        w.partitionKey().get(d.hashKeyName()), outcome.collectionBytes());
                if (m != null) {
                    metrics.computeIfAbsent(d.tableName(), t -> new ArrayList<>()).add(m);
                }
            }
        } finally {
            locks.unlockAll(stripes);
        }
        return new Committed(units, metrics);
    }

    static List<ConsumedCapacity> capacity(String mode, Map<String, CapacityTally> unitsPerTable) {
        if (mode == null || "NONE".equals(mode)) {
            return null;
        }
        List<ConsumedCapacity> out = new ArrayList<>();
        unitsPerTable.values().forEach(tally -> out.add(tally.report(mode)));
        return out;
    }
}
