package dev.kumiko.engine.read;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads one page of a key range as DynamoDB pages Query and Scan: Limit counts items evaluated
 * (before the filter), the page stops once the entries read reach 1 MB (sizes before the filter,
 * of what the table or index holds), and LastEvaluatedKey is the key of the last entry evaluated
 * when either stopped the read. The entry that crosses 1 MB is on the page: the API reference
 * stops a Scan when "the total size of scanned items exceeds" 1 MB, which takes reading it. An
 * LSI read that needs attributes the index does not project completes each entry from the table.
 */
final class PageReader {
    /** DynamoDB's page size: a Query or Scan reads at most 1 MB before returning. */
    static final long PAGE_BYTES_MAX = 1024 * 1024;

    private PageReader() {}

    /** How one page is read; {@code fetchFromTable} completes LSI entries from the table. */
    record Request(
            KeyRange range,
            boolean reverse,
            ReadTarget target,
            ReadShape shape,
            long limit,
            boolean consistent,
            boolean fetchFromTable,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {}

    /** A page and what it consumed, which throughput enforcement charges whether reported or not. */
    record Page(ReadResult result, CapacityTally units) {}

    static Page read(Store store, Request q) {
        ReadShape shape = q.shape();
        List<Map<String, AttributeValue>> items = shape.countOnly() ? null : new ArrayList<>();
        int count = 0;
        int scanned = 0;
        long bytes = 0;
        double fetchedUnits = 0;
        Map<String, AttributeValue> lastKey = null;
        if (!q.range().isEmpty()) {
            try (Cursor cursor = store.scan(q.range().start(), q.range().end(), q.reverse())) {
                while (cursor.next()) {
                    EncodedItem entry = EncodedItem.of(cursor.value());
                    scanned++;
                    bytes += entry.sizeBytes();
                    Map<String, AttributeValue> item =
                            q.fetchFromTable() ? fetch(store, q.target().table(), entry) : entry;
                    if (item != null && q.fetchFromTable()) {
                        fetchedUnits += CapacityUnits.read(ItemSize.of(item), q.consistent());
                    }
                    if (item != null && shape.test(item)) {
                        count++;
                        if (items != null) {
                            items.add(shape.project(item));
                        }
                    }
                    if (scanned >= q.limit() || bytes >= PAGE_BYTES_MAX) {
                        lastKey = q.target().lastEvaluatedKey(entry);
                        break;
                    }
                }
            }
        }
        CapacityTally units = capacity(q, CapacityUnits.read(bytes, q.consistent()), fetchedUnits);
        ReadResult result = new ReadResult(items, count, scanned, lastKey, units.report(q.returnConsumedCapacity()));
        return new Page(result, units);
    }

    /**
     * A page costs its entries' summed size in 4 KB read units, charged to what was read; an LSI
     * read that completes entries from the table charges each fetched item, rounded up on its own,
     * to the table, which is where the fetch reads.
     */
    private static CapacityTally capacity(Request q, double units, double fetchedUnits) {
        CapacityTally tally = new CapacityTally(q.target().table().tableName(), true);
        if (q.target().index() == null) {
            return tally.addTable(units);
        }
        tally.addIndex(q.target().index(), units);
        return fetchedUnits > 0 ? tally.addTable(fetchedUnits) : tally;
    }

    /** The table's item behind an LSI entry; null if it went away since the entry was read. */
    private static @Nullable Map<String, AttributeValue> fetch(
            Store store, TableDescriptor t, Map<String, AttributeValue> entry) {
        String range = t.rangeKeyName();
        byte[] key = ItemKey.of(t.id(), t.hashKeyOf(entry), range == null ? null : entry.get(range));
        byte[] bytes = store.get(key);
        return bytes == null ? null : EncodedItem.of(bytes);
    }
}
