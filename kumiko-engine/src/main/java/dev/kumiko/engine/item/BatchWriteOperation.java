package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.check.DuplicateKeys;
import dev.kumiko.engine.check.ItemNames;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.failure.ConflictRetry;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.engine.throughput.ThrottleErrors;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ThroughputExceeded;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.storage.StoreFullException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * BatchWriteItem: validates every request first (so a bad one writes nothing), then applies each
 * put or delete through {@link ItemWriter} in store transactions. A write that
 * throughput enforcement throttles is handed back in UnprocessedItems; when every write was
 * throttled, the request fails with the throttling error instead.
 */
final class BatchWriteOperation {
    static final int REQUESTS_MAX = 25;

    private final ItemAccess access;
    private final ItemWriter writer;
    private final ThroughputLimiter limiter;

    BatchWriteOperation(ItemAccess access, ItemWriter writer, ThroughputLimiter limiter) {
        this.access = access;
        this.writer = writer;
        this.limiter = limiter;
    }

    /** One validated write; item is null for a delete, itemBytes its size (0 for a delete). */
    private record Write(
            Table table,
            byte[] key,
            Map<String, AttributeValue> partitionKey,
            @Nullable Map<String, AttributeValue> item,
            long itemBytes,
            BatchRequests.WriteRequest request) {}

    /**
     * What the writes report: write units and item collection metrics per table, and the writes
     * that were throttled (by table) with why.
     */
    private record Committed(
            Map<String, CapacityTally> units,
            Map<String, List<ItemCollectionMetrics>> metrics,
            Map<String, List<BatchRequests.WriteRequest>> unprocessed,
            List<ThroughputExceeded> throttles) {}

    BatchResults.BatchWrite apply(BatchRequests.BatchWrite r) {
        BatchChecks.requestItems(r.requestItems(), BatchChecks::size, REQUESTS_MAX, REQUESTS_MAX, "BatchWriteItem");
        // The requests' own shape and sizes are refused before any table is looked up; each put's
        // size is computed once, here, in the order the writes are validated below.
        long[] sizes = new long[REQUESTS_MAX];
        int n = 0;
        for (List<BatchRequests.WriteRequest> requests : r.requestItems().values()) {
            for (BatchRequests.WriteRequest w : requests) {
                sizes[n++] = checkShape(w);
            }
        }
        List<Write> writes = new ArrayList<>(n);
        for (Map.Entry<String, List<BatchRequests.WriteRequest>> e :
                r.requestItems().entrySet()) {
            Table table = access.table(e.getKey());
            for (BatchRequests.WriteRequest w : e.getValue()) {
                writes.add(validated(table, w, sizes[writes.size()]));
            }
        }
        DuplicateKeys.refuse(writes.stream().map(Write::key).toList(), BatchChecks.DUPLICATE_KEYS);
        Committed committed = commitAll(writes, r.returnItemCollectionMetrics());
        if (committed.throttles().size() == writes.size()) {
            throw ThrottleErrors.nothingProcessed(committed.throttles());
        }
        return new BatchResults.BatchWrite(
                committed.unprocessed(),
                capacity(r.returnConsumedCapacity(), committed.units()),
                r.returnItemCollectionMetrics() == ReturnItemCollectionMetrics.SIZE ? committed.metrics() : null);
    }

    /** Returns the put's item size (0 for a delete). */
    private static long checkShape(BatchRequests.WriteRequest w) {
        if ((w.put() == null) == (w.delete() == null)) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation(
                    "Supplied WriteRequest must contain exactly one of PutRequest or " + "DeleteRequest");
        }
        long bytes = w.put() == null ? 0 : ItemSize.of(w.put());
        if (bytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
            throw DynamoException.validation("Item size has exceeded the maximum allowed size");
        }
        if (w.put() != null) {
            ItemNames.check(w.put());
        }
        return bytes;
    }

    private static Write validated(Table table, BatchRequests.WriteRequest w, long bytes) {
        TableDescriptor d = table.descriptor();
        Map<String, AttributeValue> put = w.put();
        if (put != null) {
            KeyCheck.itemKeys(d, put);
            IndexKeyCheck.item(d, put);
            return new Write(table, ItemAccess.storageKey(d, put), put, put, bytes, w);
        }
        Map<String, AttributeValue> key = Objects.requireNonNull(w.delete(), "checkShape found a put or a delete");
        KeyCheck.key(d, key);
        return new Write(table, ItemAccess.storageKey(d, key), key, null, 0, w);
    }

    /**
     * Applies the writes in store transactions. A BatchWriteItem is not a transaction to DynamoDB,
     * but its writes wait out one on their items rather than fail (waitOutClaims).
     */
    private Committed commitAll(List<Write> writes, @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics) {
        Committed committed =
                new Committed(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new ArrayList<>(0));
        if (anyEnforced(writes)) {
            commitEach(writes, returnItemCollectionMetrics, committed);
            return committed;
        }
        byte[][] keys = new byte[writes.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = writes.get(i).key();
        }
        List<WriteOutcome> outcomes = ConflictRetry.batchWrite(() -> {
            try (Transaction txn = access.store().begin(keys, TransactionMode.WAIT)) {
                return commitTogether(txn, keys, writes);
            }
        });
        for (int i = 0; i < writes.size(); i++) {
            account(writes.get(i), outcomes.get(i), returnItemCollectionMetrics, committed);
        }
        return committed;
    }

    /**
     * Whether throughput is enforced on any of the writes' tables. Asked once per table, not per
     * write: the writes of one table are adjacent (validated table by table), and a stream over
     * the 25 of them measured 2 % of a batch's samples.
     */
    private boolean anyEnforced(List<Write> writes) {
        Table asked = null;
        for (Write w : writes) {
            if (w.table() != asked) {
                asked = w.table();
                if (limiter.enforced(asked.descriptor())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Each write is admitted, committed and charged on its own, in request order, so a bucket that
     * runs dry part-way throttles only the rest. A store that is full part-way (the memory store's
     * budget) leaves the write it refused and those after it unprocessed, as DynamoDB reports writes
     * it did not get to; refused at the first write, the request fails with the store's error.
     */
    private void commitEach(
            List<Write> writes,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics,
            Committed committed) {
        for (int i = 0; i < writes.size(); i++) {
            Write w = writes.get(i);
            TableDescriptor d = w.table().descriptor();
            AttributeValue partitionKey = d.hashKeyOf(w.partitionKey());
            WriteOutcome outcome;
            try {
                limiter.admitWrite(w.table(), partitionKey, w.partitionKey());
                outcome = commitOne(w);
            } catch (ThroughputExceeded e) {
                committed.throttles().add(e);
                unprocessed(committed, w);
                continue;
            } catch (StoreFullException e) {
                if (committed.units().isEmpty()) {
                    throw e;
                }
                for (Write rest : writes.subList(i, writes.size())) {
                    unprocessed(committed, rest);
                }
                return;
            }
            account(w, outcome, returnItemCollectionMetrics, committed);
        }
    }

    private static void unprocessed(Committed committed, Write w) {
        committed
                .unprocessed()
                .computeIfAbsent(w.table().descriptor().tableName(), t -> new ArrayList<>())
                .add(w.request());
    }

    /** One write in its own store transaction; throttled index writes leave it unwritten. */
    private WriteOutcome commitOne(Write w) {
        return ConflictRetry.batchWrite(() -> {
            try (Transaction txn = access.begin(w.key())) {
                Map<String, AttributeValue> old = ItemAccess.read(txn, w.key());
                limiter.admitIndexWrites(w.table(), old, w.item());
                return writer.commit(txn, w.table(), w.key(), old, w.item(), w.itemBytes());
            }
        });
    }

    /**
     * Without throughput enforcement nothing is handed back, so all writes go to the store in one
     * batch (one write-ahead-log append on disk instead of 25). An item collection that would grow
     * past its limit then fails the whole request, writing nothing.
     */
    private List<WriteOutcome> commitTogether(Transaction txn, byte[][] keys, List<Write> writes) {
        Map<String, AttributeValue>[] olds = ItemAccess.decodeAll(txn.getAll(keys));
        List<ItemWriter.Change> changes = new ArrayList<>(writes.size());
        for (int i = 0; i < writes.size(); i++) {
            Write w = writes.get(i);
            changes.add(new ItemWriter.Change(w.table(), w.key(), olds[i], w.item(), w.itemBytes()));
        }
        return writer.commitAll(txn, changes);
    }

    /** Adds a committed write's units (charging them) and its item collection metrics. */
    private void account(
            Write w,
            WriteOutcome outcome,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics,
            Committed committed) {
        TableDescriptor d = w.table().descriptor();
        AttributeValue partitionKey = d.hashKeyOf(w.partitionKey());
        long billed = Math.max(w.itemBytes(), outcome.oldItemBytes());
        CapacityTally tally = CapacityUnits.write(d.tableName(), billed, outcome.indexChanges());
        limiter.chargeWrite(w.table(), partitionKey, tally);
        committed.units().merge(d.tableName(), tally, CapacityTally::addAll);
        ItemCollectionMetrics m =
                ItemCollectionMetrics.of(returnItemCollectionMetrics, d, partitionKey, outcome.collectionBytes());
        if (m != null) {
            committed
                    .metrics()
                    .computeIfAbsent(d.tableName(), t -> new ArrayList<>())
                    .add(m);
        }
    }

    static @Nullable List<ConsumedCapacity> capacity(
            @Nullable ReturnConsumedCapacity mode, Map<String, CapacityTally> unitsPerTable) {
        if (!ReturnConsumedCapacity.reported(mode)) {
            return null;
        }
        List<ConsumedCapacity> out = new ArrayList<>();
        unitsPerTable.values().forEach(tally -> out.add(tally.report(mode)));
        return out;
    }
}
