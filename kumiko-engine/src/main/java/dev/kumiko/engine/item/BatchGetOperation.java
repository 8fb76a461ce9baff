package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.check.DuplicateKeys;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.check.KeyPathCheck;
import dev.kumiko.engine.throughput.ThrottleErrors;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ThroughputExceeded;
import dev.kumiko.expr.LegacyExpressions;
import dev.kumiko.expr.ProjectionExpression;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * BatchGetItem: reads up to 100 keys over several tables. Keys that throughput enforcement
 * throttles, and once the response would pass 16 MB the remaining keys, are returned as
 * UnprocessedKeys with their table's projection settings. When every key was throttled, the
 * request fails with the throttling error instead.
 */
final class BatchGetOperation {
    static final int KEYS_MAX = 100;
    static final long RESPONSE_BYTES_MAX = 16L * 1024 * 1024;

    private final ItemAccess access;
    private final ThroughputLimiter limiter;

    BatchGetOperation(ItemAccess access, ThroughputLimiter limiter) {
        this.access = access;
        this.limiter = limiter;
    }

    /** One table's part of the request, validated; {@code live} is the table that throttles. */
    private record TableRead(
            TableDescriptor table,
            Table live,
            BatchRequests.KeysAndAttributes request,
            RequestExpressions expr,
            @Nullable ProjectionExpression legacyProjection,
            List<byte[]> keys) {}

    BatchResults.BatchGet apply(BatchRequests.BatchGet r) {
        BatchChecks.requestItems(
                r.requestItems(), k -> k.keys() == null ? 0 : k.keys().size(), KEYS_MAX, KEYS_MAX, "BatchGetItem");
        // Every table's projection is checked before any table is looked up, as DynamoDB refuses a
        // bad expression even when the table does not exist.
        Map<String, Parsed> parsed = new LinkedHashMap<>();
        r.requestItems().forEach((name, k) -> parsed.put(name, parsed(k)));
        r.requestItems().values().forEach(BatchGetOperation::refuseRepeatedKeys);
        List<TableRead> reads = new ArrayList<>();
        parsed.forEach((name, p) -> reads.add(
                validated(name, Objects.requireNonNull(r.requestItems().get(name), "parsed names are its keys"), p)));
        List<byte[]> allKeys = new ArrayList<>();
        reads.forEach(t -> allKeys.addAll(t.keys()));
        DuplicateKeys.refuse(allKeys, BatchChecks.DUPLICATE_KEYS);
        return readAll(reads, r.returnConsumedCapacity());
    }

    /**
     * A key given twice for one table is a duplicate without knowing the table: DynamoDB refuses it
     * even when the table does not exist (a third party's capture). Keys that differ only in how a
     * number is written are caught by the storage keys, once the table is known.
     */
    private static void refuseRepeatedKeys(BatchRequests.KeysAndAttributes k) {
        if (k.keys() == null) {
            return;
        }
        Set<Map<String, AttributeValue>> seen = new HashSet<>(k.keys().size() * 2);
        for (Map<String, AttributeValue> key : k.keys()) {
            if (!seen.add(key)) {
                throw DynamoException.validation(BatchChecks.DUPLICATE_KEYS);
            }
        }
    }

    /** What one table's part says, checked without the table. */
    private record Parsed(RequestExpressions expr, @Nullable ProjectionExpression legacyProjection) {}

    private static Parsed parsed(BatchRequests.KeysAndAttributes k) {
        List<String> legacy = k.attributesToGet() == null ? List.of() : List.of("AttributesToGet");
        List<String> expressions = k.projectionExpression() == null ? List.of() : List.of("ProjectionExpression");
        LegacyExpressions.checkNotMixed(legacy, expressions);
        RequestExpressions expr = RequestExpressions.builder()
                .projectionExpression(k.projectionExpression())
                .expressionAttributeNames(k.expressionAttributeNames())
                .build();
        LegacyExpressions.checkAttributesToGet(k.attributesToGet());
        ProjectionExpression legacyProjection =
                k.attributesToGet() == null ? null : LegacyExpressions.attributesToGet(k.attributesToGet());
        return new Parsed(expr, legacyProjection);
    }

    private TableRead validated(String name, BatchRequests.KeysAndAttributes k, Parsed p) {
        Table live = access.table(name);
        TableDescriptor d = live.descriptor();
        List<byte[]> keys = new ArrayList<>(k.keys().size());
        for (Map<String, AttributeValue> key : k.keys()) {
            KeyCheck.key(d, key);
            keys.add(ItemAccess.storageKey(d, key));
        }
        KeyPathCheck.check(d, p.expr());
        return new TableRead(d, live, k, p.expr(), p.legacyProjection(), keys);
    }

    private BatchResults.BatchGet readAll(List<TableRead> reads, @Nullable ReturnConsumedCapacity capacityMode) {
        Map<String, List<Map<String, AttributeValue>>> responses = new LinkedHashMap<>();
        Map<String, BatchRequests.KeysAndAttributes> unprocessed = new LinkedHashMap<>();
        Map<String, Double> units = new LinkedHashMap<>();
        List<ThroughputExceeded> throttles = new ArrayList<>(0);
        int keysTotal = 0;
        long bytes = 0;
        boolean full = false;
        Map<String, AttributeValue>[] items = fetch(reads);
        int next = 0;
        for (TableRead t : reads) {
            int first = next;
            next += t.keys().size();
            String name = t.table().tableName();
            keysTotal += t.keys().size();
            if (full) {
                unprocessed.put(name, t.request());
                continue;
            }
            List<Map<String, AttributeValue>> found = responses.computeIfAbsent(name, n -> new ArrayList<>());
            List<Map<String, AttributeValue>> left = new ArrayList<>(0);
            boolean consistent = Boolean.TRUE.equals(t.request().consistentRead());
            for (int i = 0; i < t.keys().size(); i++) {
                Map<String, AttributeValue> key = t.request().keys().get(i);
                AttributeValue partitionKey = t.table().hashKeyOf(key);
                try {
                    limiter.admitRead(t.live(), null, partitionKey, key);
                } catch (ThroughputExceeded e) {
                    throttles.add(e);
                    left.add(key);
                    continue;
                }
                Map<String, AttributeValue> item = items[first + i];
                long size = item == null ? 0 : ItemSize.of(item);
                if (bytes + size > RESPONSE_BYTES_MAX) {
                    left.addAll(t.request().keys().subList(i, t.keys().size()));
                    full = true;
                    break;
                }
                bytes += size;
                double itemUnits = CapacityUnits.read(size, consistent);
                limiter.chargeRead(t.live(), null, partitionKey, new CapacityTally(name, true).addTable(itemUnits));
                units.merge(name, itemUnits, Double::sum);
                if (item != null) {
                    found.add(
                            t.legacyProjection() != null
                                    ? LegacyExpressions.project(t.legacyProjection(), item)
                                    : t.expr().project(item));
                }
            }
            if (!left.isEmpty()) {
                unprocessed.put(name, t.request().withKeys(left));
            }
        }
        if (throttles.size() == keysTotal) {
            throw ThrottleErrors.nothingProcessed(throttles);
        }
        return new BatchResults.BatchGet(responses, unprocessed, capacity(capacityMode, units));
    }

    /**
     * Every key of the request (at most 100) in one store call, in request order. Keys later
     * throttled or cut by the response size limit are read for nothing, which costs less than a
     * store call per key; BatchGetItem is read-committed per item, so one call changes nothing a
     * client can observe.
     */
    private Map<String, AttributeValue>[] fetch(List<TableRead> reads) {
        List<byte[]> keys = new ArrayList<>();
        for (TableRead t : reads) {
            keys.addAll(t.keys());
        }
        return access.readAll(keys.toArray(new byte[0][]));
    }

    private static @Nullable List<ConsumedCapacity> capacity(
            @Nullable ReturnConsumedCapacity mode, Map<String, Double> unitsPerTable) {
        if (!ReturnConsumedCapacity.reported(mode)) {
            return null;
        }
        List<ConsumedCapacity> out = new ArrayList<>();
        unitsPerTable.forEach((table, units) -> out.add(CapacityUnits.report(mode, table, units, true)));
        return out;
    }
}
