package dev.kumiko.engine.read;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Constraints;
import dev.kumiko.engine.Enums;
import dev.kumiko.engine.control.TableNames;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.KeyCondition;
import dev.kumiko.expr.LegacyExpressions;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.storage.Store;
import java.util.HashSet;
import java.util.Set;

/**
 * Query and Scan on a table. Validation order: member constraints, IndexName, expression style and
 * Select, expressions, table, key condition, filter keys, ExclusiveStartKey.
 */
public final class ReadOperations {
    private final Catalog catalog;
    private final Store store;

    public ReadOperations(Catalog catalog, Store store) {
        this.catalog = catalog;
        this.store = store;
    }

    public ReadResult query(ReadRequests.Query q) {
        ReadRequests.Common r = q.common();
        checkMembers(r, null, null);
        ReadShape shape = ReadShape.of(r, q.keyConditionExpression(), q.keyConditions() != null, "QueryFilter");
        TableDescriptor d = table(r.tableName()).descriptor();
        KeyCondition key = keyCondition(q, shape, d);
        QueryKeyTypes.check(d, key);
        shape.checkFilterAvoidsKeys(keyNames(d), "QueryFilter");
        byte[] prefix = ItemKey.partitionPrefix(d.id(), key.partitionKeyValue());
        KeyRange range = SortKeyRange.of(prefix, key.sortKey());
        boolean reverse = Boolean.FALSE.equals(q.scanIndexForward());
        byte[] start = StartKey.forQuery(d, r.exclusiveStartKey(), key);
        if (start != null) {
            range = reverse ? range.before(start) : range.after(start);
        }
        return PageReader.read(store, range, reverse, d, shape, limit(r), consistent(r), r.returnConsumedCapacity());
    }

    public ReadResult scan(ReadRequests.Scan s) {
        ReadRequests.Common r = s.common();
        checkMembers(r, s.segment(), s.totalSegments());
        Segments.check(s.segment(), s.totalSegments());
        ReadShape shape = ReadShape.of(r, null, false, "ScanFilter");
        TableDescriptor d = table(r.tableName()).descriptor();
        KeyRange range = Segments.range(d.id(), s.segment(), s.totalSegments());
        byte[] start = StartKey.forScan(d, r.exclusiveStartKey(), range, s.segment(), s.totalSegments());
        if (start != null) {
            range = range.after(start);
        }
        return PageReader.read(store, range, false, d, shape, limit(r), consistent(r), r.returnConsumedCapacity());
    }

    private static void checkMembers(ReadRequests.Common r, Long segment, Long totalSegments) {
        TableNames.resolve(r.tableName(), "tableName");
        Constraints c = new Constraints();
        c.enumValue("select", r.select(), Enums.SELECT);
        c.range("limit", r.limit(), 1, Integer.MAX_VALUE);
        c.range("segment", segment, 0, Segments.TOTAL_SEGMENTS_MAX - 1);
        c.range("totalSegments", totalSegments, 1, Segments.TOTAL_SEGMENTS_MAX);
        c.enumValue("returnConsumedCapacity", r.returnConsumedCapacity(), Enums.RETURN_CONSUMED_CAPACITY);
        c.throwIfAny();
        if (r.indexName() != null) {
            throw DynamoException.validation("Kumiko does not support queries and scans of secondary indexes yet");
        }
    }

    private static KeyCondition keyCondition(ReadRequests.Query q, ReadShape shape, TableDescriptor d) {
        if (q.keyConditions() != null) {
            return LegacyExpressions.keyConditions(q.keyConditions(), d.hashKeyName(), d.rangeKeyName());
        }
        if (q.keyConditionExpression() == null) {
            throw DynamoException.validation("Either the KeyConditions or KeyConditionExpression parameter must be "
                    + "specified in the request.");
        }
        return shape.expressions().keyCondition(d.hashKeyName(), d.rangeKeyName());
    }

    private Table table(String nameOrArn) {
        Table t = catalog.get(TableNames.resolve(nameOrArn, "tableName"));
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        return t;
    }

    private static Set<String> keyNames(TableDescriptor d) {
        Set<String> names = new HashSet<>();
        names.add(d.hashKeyName());
        if (d.rangeKeyName() != null) {
            names.add(d.rangeKeyName());
        }
        return names;
    }

    private static long limit(ReadRequests.Common r) {
        return r.limit() == null ? Long.MAX_VALUE : r.limit();
    }

    private static boolean consistent(ReadRequests.Common r) {
        return Boolean.TRUE.equals(r.consistentRead());
    }
}
