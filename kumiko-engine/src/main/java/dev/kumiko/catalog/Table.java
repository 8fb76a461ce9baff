package dev.kumiko.catalog;

import dev.kumiko.storage.Store;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A live table: its current descriptor and statistics (the table's, each index's, and the item
 * collection sizes that tables with LSIs are limited by). The descriptor is swapped on update.
 */
public final class Table {
    private volatile TableDescriptor descriptor;
    private final Store store;
    private final TableStats stats;
    private final ConcurrentHashMap<Integer, TableStats> indexStats = new ConcurrentHashMap<>();
    private final ItemCollectionSizes collections;

    Table(TableDescriptor descriptor, Store store) {
        this.descriptor = descriptor;
        this.store = store;
        int id = descriptor.id();
        this.stats = new TableStats(
                store, StatsKeys.table(id, StatsKeys.ITEM_COUNT), StatsKeys.table(id, StatsKeys.ITEM_BYTES));
        this.collections = new ItemCollectionSizes(store, id);
    }

    public TableDescriptor descriptor() {
        return descriptor;
    }

    void setDescriptor(TableDescriptor d) {
        assert d.id() == descriptor.id();
        descriptor = d;
    }

    public TableStats stats() {
        return stats;
    }

    /** Entry count and size of one index, by index id. */
    public TableStats indexStats(int indexId) {
        TableStats s = indexStats.get(indexId);
        return s != null
                ? s
                : indexStats.computeIfAbsent(
                        indexId,
                        id -> new TableStats(
                                store,
                                StatsKeys.index(descriptor.id(), StatsKeys.INDEX_COUNT, id),
                                StatsKeys.index(descriptor.id(), StatsKeys.INDEX_BYTES, id)));
    }

    /** Forgets a deleted index's statistics (the caller deletes its counters). */
    void dropIndexStats(int indexId) {
        indexStats.remove(indexId);
    }

    public ItemCollectionSizes collections() {
        return collections;
    }
}
