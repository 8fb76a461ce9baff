package dev.kumiko.catalog;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The tables, kept in the store's catalog space and mirrored in memory. Control-plane changes are
 * serialized by the catalog's lock; data-plane reads of the map take none.
 */
public final class Catalog {
    /** DynamoDB's default per-account, per-region table quota. */
    public static final int TABLES_MAX = 2500;
    private static final byte[] NEXT_ID_KEY = new ByteSink(16).put(KeySpace.META)
            .put("next-id".getBytes(StandardCharsets.US_ASCII)).toArray();

    private final Store store;
    private final ConcurrentSkipListMap<String, Table> tables = new ConcurrentSkipListMap<>();
    private int nextId;

    public Catalog(Store store) {
        this.store = store;
        load();
    }

    private void load() {
        byte[] next = store.get(NEXT_ID_KEY);
        nextId = next == null ? 1 : ByteBuffer.wrap(next).getInt();
        byte[] start = {KeySpace.CATALOG};
        byte[] end = {KeySpace.CATALOG + 1};
        try (Cursor c = store.scan(start, end, false)) {
            while (c.next()) {
                TableDescriptor d = DescriptorCodec.decode(c.value());
                Table t = new Table(d);
                countItems(t);
                tables.put(d.tableName(), t);
            }
        }
    }

    /**
     * Rebuilds a table's statistics from its items and index entries, and for a table with LSIs
     * its item collection sizes; O(items + entries), run once at open.
     */
    private void countItems(Table t) {
        TableDescriptor d = t.descriptor();
        boolean collections = !d.localSecondaryIndexes().isEmpty();
        try (Cursor c = store.scan(KeySpace.prefix(KeySpace.ITEMS, d.id()), KeySpace.prefixEnd(KeySpace.ITEMS, d.id()),
                false)) {
            while (c.next()) {
                Map<String, AttributeValue> item = ItemCodec.decode(c.value());
                long bytes = ItemSize.of(item);
                t.stats().add(1, bytes);
                if (collections) {
                    t.collections().add(ItemKey.partitionPrefix(d.id(), item.get(d.hashKeyName())), bytes);
                }
            }
        }
        for (IndexDescriptor x : d.localSecondaryIndexes()) {
            countEntries(t, x, true);
        }
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            countEntries(t, x, false);
        }
    }

    private void countEntries(Table t, IndexDescriptor x, boolean inCollections) {
        TableDescriptor d = t.descriptor();
        try (Cursor c = store.scan(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()),
                false)) {
            while (c.next()) {
                Map<String, AttributeValue> entry = ItemCodec.decode(c.value());
                long bytes = ItemSize.of(entry);
                t.indexStats(x.id()).add(1, bytes);
                if (inCollections) {
                    t.collections().add(ItemKey.partitionPrefix(d.id(), entry.get(d.hashKeyName())), bytes);
                }
            }
        }
    }

    public Table get(String tableName) {
        return tables.get(tableName);
    }

    /** Every table, in name order: a snapshot for background tasks that visit them all. */
    public List<Table> tables() {
        return List.copyOf(tables.values());
    }

    public int size() {
        return tables.size();
    }

    /** Table names in DynamoDB's ListTables order (ascending), after exclusiveStart, at most limit. */
    public List<String> names(String exclusiveStart, int limit) {
        var view = exclusiveStart == null ? tables.keySet() : tables.tailMap(exclusiveStart, false).keySet();
        List<String> out = new ArrayList<>(Math.min(limit, 128));
        for (String name : view) {
            if (out.size() == limit) {
                break;
            }
            out.add(name);
        }
        return out;
    }

    public synchronized int allocateId() {
        int id = nextId++;
        store.apply(new WriteBatch().put(NEXT_ID_KEY, ByteBuffer.allocate(4).putInt(nextId).array()));
        return id;
    }

    /** Adds a table; returns false if the name is taken. */
    public synchronized boolean create(TableDescriptor d) {
        if (tables.containsKey(d.tableName())) {
            return false;
        }
        store.apply(new WriteBatch().put(catalogKey(d.tableName()), DescriptorCodec.encode(d)));
        tables.put(d.tableName(), new Table(d));
        return true;
    }

    public synchronized void update(TableDescriptor d) {
        Table t = tables.get(d.tableName());
        assert t != null : "update of a missing table " + d.tableName();
        store.apply(new WriteBatch().put(catalogKey(d.tableName()), DescriptorCodec.encode(d)));
        t.setDescriptor(d);
    }

    /** Marks a backfilled GSI ACTIVE, unless it was deleted meanwhile. */
    public synchronized void activateIndex(Table t, int indexId) {
        TableDescriptor d = t.descriptor();
        if (tables.get(d.tableName()) != t) {
            return;
        }
        List<IndexDescriptor> gsis = new ArrayList<>(d.globalSecondaryIndexes().size());
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            gsis.add(x.id() == indexId ? x.withStatus(IndexDescriptor.ACTIVE) : x);
        }
        update(d.withGlobalIndexes(d.attributeDefinitions(), List.copyOf(gsis)));
    }

    /** Removes a deleted index's entries and statistics; its descriptor is already gone. */
    public void dropIndex(Table t, IndexDescriptor x) {
        assert !t.descriptor().globalSecondaryIndexes().contains(x) : "index still in the descriptor";
        store.deleteRange(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()));
        t.dropIndexStats(x.id());
    }

    /** Removes a table and every key it owns: items, index entries, change log. */
    public synchronized void drop(String tableName) {
        Table t = tables.remove(tableName);
        if (t == null) {
            return;
        }
        TableDescriptor d = t.descriptor();
        store.apply(new WriteBatch().delete(catalogKey(tableName)));
        store.deleteRange(KeySpace.prefix(KeySpace.ITEMS, d.id()), KeySpace.prefixEnd(KeySpace.ITEMS, d.id()));
        store.deleteRange(KeySpace.prefix(KeySpace.CHANGE_LOG, d.id()),
                KeySpace.prefixEnd(KeySpace.CHANGE_LOG, d.id()));
        for (IndexDescriptor x : d.localSecondaryIndexes()) {
            store.deleteRange(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()));
        }
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            store.deleteRange(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()));
        }
    }

    private static byte[] catalogKey(String tableName) {
        return new ByteSink(1 + tableName.length()).put(KeySpace.CATALOG)
                .put(tableName.getBytes(StandardCharsets.UTF_8)).toArray();
    }
}
