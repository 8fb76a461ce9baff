package dev.kumiko.engine.read;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one page of a key range as DynamoDB pages Query and Scan: Limit counts items evaluated
 * (before the filter), the page stops once the items read reach 1 MB (sizes before the filter),
 * and LastEvaluatedKey is the key of the last item evaluated when either stopped the read.
 */
final class PageReader {
    /** DynamoDB's page size: a Query or Scan reads at most 1 MB before returning. */
    static final long PAGE_BYTES_MAX = 1024 * 1024;

    private PageReader() {}

    static ReadResult read(Store store, KeyRange range, boolean reverse, TableDescriptor table, ReadShape shape,
            long limit, boolean consistent, String returnConsumedCapacity) {
        List<Map<String, AttributeValue>> items = shape.countOnly() ? null : new ArrayList<>();
        int count = 0;
        int scanned = 0;
        long bytes = 0;
        Map<String, AttributeValue> lastKey = null;
        if (!range.isEmpty()) {
            try (Cursor cursor = store.scan(range.start(), range.end(), reverse)) {
                while (cursor.next()) {
                    Map<String, AttributeValue> item = ItemCodec.decode(cursor.value());
                    scanned++;
                    bytes += ItemSize.of(item);
                    if (shape.test(item)) {
                        count++;
                        if (items != null) {
                            items.add(shape.project(item));
                        }
                    }
                    if (scanned >= limit || bytes >= PAGE_BYTES_MAX) {
                        lastKey = keyOf(table, item);
                        break;
                    }
                }
            }
        }
        double units = CapacityUnits.read(bytes, consistent);
        return new ReadResult(items, count, scanned, lastKey,
                CapacityUnits.report(returnConsumedCapacity, table.tableName(), units, true));
    }

    static Map<String, AttributeValue> keyOf(TableDescriptor t, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new LinkedHashMap<>(4);
        key.put(t.hashKeyName(), item.get(t.hashKeyName()));
        if (t.rangeKeyName() != null) {
            key.put(t.rangeKeyName(), item.get(t.rangeKeyName()));
        }
        return key;
    }
}
