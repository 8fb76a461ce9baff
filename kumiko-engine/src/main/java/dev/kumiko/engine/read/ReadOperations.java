package dev.kumiko.engine.read;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.check.KeyPathCheck;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.KeyCondition;
import dev.kumiko.expr.LegacyExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Store;
import org.jspecify.annotations.Nullable;

/**
 * Query and Scan on a table or one of its indexes. Validation order: member constraints,
 * expression style and Select, expressions, table, index, key condition, filter keys,
 * ExclusiveStartKey.
 */
public final class ReadOperations {
    private final Catalog catalog;
    private final Store store;
    private final ThroughputLimiter limiter;

    private static final String NO_KEY_CONDITION =
            "Either the KeyConditions or KeyConditionExpression parameter " + "must be specified in the request.";

    public ReadOperations(Catalog catalog, Store store, ThroughputLimiter limiter) {
        this.catalog = catalog;
        this.store = store;
        this.limiter = limiter;
    }

    public ReadResult query(ReadRequests.Query q) {
        ReadRequests.Common r = q.common();
        checkNames(r);
        ReadShape shape = ReadShape.of(r, q.keyConditionExpression(), q.keyConditions() != null, "QueryFilter");
        if (q.keyConditions() == null && q.keyConditionExpression() == null) {
            // Known from the request alone, so refused before the table is looked up.
            throw DynamoException.validation(NO_KEY_CONDITION);
        }
        Table table = table(r.tableName());
        TableDescriptor d = table.descriptor();
        dev.kumiko.engine.vector.VectorIndexes.refuseRead(store, d.id(), r.indexName());
        ReadTarget target = ReadTarget.resolve(d, r.indexName(), consistent(r));
        target.checkSelect(r.select());
        target.checkProjected(shape.projectionNames());
        KeyCondition key = keyCondition(q, shape, target);
        QueryKeyTypes.check(d, target.sortKeyNames(), key);
        shape.checkFilterAvoidsKeys(target.keyNames(), "QueryFilter");
        KeyRange range = SortKeyRange.of(target.queryPrefix(key), key.sortKey());
        boolean reverse = Boolean.FALSE.equals(q.scanIndexForward());
        byte[] start = StartKey.forQuery(target, r.exclusiveStartKey(), key);
        // DynamoDB judges a filter naming a key attribute and the ExclusiveStartKey first.
        KeyPathCheck.check(d, shape.expressions());
        if (start != null) {
            range = reverse ? range.before(start) : range.after(start);
        }
        // On a GSI this is the index's partition key: the limiter does not enforce its limits (it
        // skips GSI keys), but usage observers see which index partition the query read. A GSI
        // keyed by several attributes has no single value to name.
        AttributeValue partitionKey = key.partitionKeyValues().size() == 1 ? key.partitionKeyValue() : null;
        return throttled(table, target, partitionKey, page(range, reverse, target, shape, r));
    }

    public ReadResult scan(ReadRequests.Scan s) {
        ReadRequests.Common r = s.common();
        checkNames(r);
        Segments.check(s.segment(), s.totalSegments());
        ReadShape shape = ReadShape.of(r, null, false, "ScanFilter");
        Table table = table(r.tableName());
        TableDescriptor d = table.descriptor();
        dev.kumiko.engine.vector.VectorIndexes.refuseRead(store, d.id(), r.indexName());
        ReadTarget target = ReadTarget.resolve(d, r.indexName(), consistent(r));
        target.checkSelect(r.select());
        target.checkProjected(shape.projectionNames());
        KeyRange range = Segments.range(target.space(), target.id(), s.segment(), s.totalSegments());
        byte[] start = StartKey.forScan(target, r.exclusiveStartKey(), range, s.segment(), s.totalSegments());
        // DynamoDB judges the ExclusiveStartKey first.
        KeyPathCheck.check(d, shape.expressions());
        if (start != null) {
            range = range.after(start);
        }
        return throttled(table, target, null, page(range, false, target, shape, r));
    }

    /** Reads the page if throughput admits it and charges what it consumed. */
    private ReadResult throttled(
            Table table, ReadTarget target, @Nullable AttributeValue partitionKey, PageReader.Request page) {
        limiter.admitRead(table, target.index(), partitionKey, null);
        PageReader.Page read = PageReader.read(store, page);
        limiter.chargeRead(table, target.index(), partitionKey, read.units());
        limiter.observer()
                .readPage(
                        table.descriptor(), read.result().count(), read.result().scannedCount());
        return read.result();
    }

    private static PageReader.Request page(
            KeyRange range, boolean reverse, ReadTarget target, ReadShape shape, ReadRequests.Common r) {
        boolean fetch = target.fetchesFromTable(r.select(), shape.namesRead());
        return new PageReader.Request(
                range, reverse, target, shape, limit(r), consistent(r), fetch, r.returnConsumedCapacity());
    }

    /**
     * The server's decoder checks every member; the names are checked again here for in-process
     * callers (PartiQL's SELECT names its table and index in the statement).
     */
    private static void checkNames(ReadRequests.Common r) {
        TableNames.resolve(r.tableName(), "tableName");
        if (r.indexName() != null) {
            Constraints c = new Constraints();
            c.tableName("indexName", r.indexName());
            c.throwIfAny();
        }
    }

    private static KeyCondition keyCondition(ReadRequests.Query q, ReadShape shape, ReadTarget target) {
        if (q.keyConditions() != null) {
            return LegacyExpressions.keyConditions(
                    q.keyConditions(), target.partitionKeyNames(), target.sortKeyNames());
        }
        return shape.expressions().keyCondition(target.partitionKeyNames(), target.sortKeyNames());
    }

    private Table table(String nameOrArn) {
        Table t = catalog.get(TableNames.resolve(nameOrArn, "tableName"));
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        return t;
    }

    private static long limit(ReadRequests.Common r) {
        return r.limit() == null ? Long.MAX_VALUE : r.limit();
    }

    private static boolean consistent(ReadRequests.Common r) {
        return Boolean.TRUE.equals(r.consistentRead());
    }
}
