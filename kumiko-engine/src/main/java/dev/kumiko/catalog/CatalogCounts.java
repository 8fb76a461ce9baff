package dev.kumiko.catalog;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The one count of a table written before its statistics were kept as store counters: a scan of
 * its items and index entries, O(items + entries), whose totals become the counters. Runs at most
 * once per table (the KEPT marker commits with the counters); tables created since never need it.
 */
final class CatalogCounts {
    private CatalogCounts() {}

    /** Whether the table's counters are kept already. */
    static boolean kept(Store store, int tableId) {
        return store.get(StatsKeys.table(tableId, StatsKeys.KEPT)) != null;
    }

    /** The marker a new table is created with: nothing to count. */
    static void markKept(WriteBatch batch, int tableId) {
        batch.put(StatsKeys.table(tableId, StatsKeys.KEPT), new byte[] {1});
    }

    static void countOnce(Store store, Table t) {
        TableDescriptor d = t.descriptor();
        boolean collections = !d.localSecondaryIndexes().isEmpty();
        Map<ByteBuffer, Long> collectionBytes = new HashMap<>();
        long items = 0;
        long bytes = 0;
        try (Cursor c = store.scan(
                KeySpace.prefix(KeySpace.ITEMS, d.id()), KeySpace.prefixEnd(KeySpace.ITEMS, d.id()), false)) {
            while (c.next()) {
                Map<String, AttributeValue> item = ItemCodec.decode(c.value());
                long size = ItemSize.of(item);
                items++;
                bytes += size;
                if (collections) {
                    collectionBytes.merge(
                            ByteBuffer.wrap(ItemKey.partitionPrefix(d.id(), d.hashKeyOf(item))), size, Long::sum);
                }
            }
        }
        WriteBatch batch = new WriteBatch();
        t.stats().setIn(batch, items, bytes);
        for (IndexDescriptor x : d.localSecondaryIndexes()) {
            countEntries(store, t, x, collections ? collectionBytes : null, batch);
        }
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            countEntries(store, t, x, null, batch);
        }
        for (Map.Entry<ByteBuffer, Long> e : collectionBytes.entrySet()) {
            batch.put(StatsKeys.collection(d.id(), e.getKey().array()), Counters.encode(e.getValue()));
        }
        markKept(batch, d.id());
        store.apply(batch);
    }

    private static void countEntries(
            Store store,
            Table t,
            IndexDescriptor x,
            @Nullable Map<ByteBuffer, Long> collectionBytes,
            WriteBatch batch) {
        TableDescriptor d = t.descriptor();
        long entries = 0;
        long bytes = 0;
        try (Cursor c = store.scan(
                KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()), false)) {
            while (c.next()) {
                Map<String, AttributeValue> entry = ItemCodec.decode(c.value());
                long size = ItemSize.of(entry);
                entries++;
                bytes += size;
                if (collectionBytes != null) {
                    collectionBytes.merge(
                            ByteBuffer.wrap(ItemKey.partitionPrefix(d.id(), d.hashKeyOf(entry))), size, Long::sum);
                }
            }
        }
        t.indexStats(x.id()).setIn(batch, entries, bytes);
    }
}
