package dev.kumiko.catalog;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A live table: its current descriptor and statistics (the table's, each index's, and the item
 * collection sizes that tables with LSIs are limited by). The descriptor is swapped on update.
 */
public final class Table {
    private volatile TableDescriptor descriptor;
    private final TableStats stats = new TableStats();
    private final ConcurrentHashMap<Integer, TableStats> indexStats = new ConcurrentHashMap<>();
    private final ItemCollectionSizes collections = new ItemCollectionSizes();

    public Table(TableDescriptor descriptor) {
        this.descriptor = descriptor;
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
        return indexStats.computeIfAbsent(indexId, id -> new TableStats());
    }

    /** Forgets a deleted index's statistics. */
    void dropIndexStats(int indexId) {
        indexStats.remove(indexId);
    }

    public ItemCollectionSizes collections() {
        return collections;
    }
}
