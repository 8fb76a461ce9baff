package dev.kumiko.catalog;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;

/**
 * The size of each item collection (all items with one partition-key value, plus their LSI
 * entries) of a table that has local secondary indexes, which DynamoDB limits to 10 GB: one store
 * counter per collection, adjusted in the commit of each write to it. Tables without LSIs keep
 * nothing here.
 */
public final class ItemCollectionSizes {
    private final Store store;
    private final int tableId;

    ItemCollectionSizes(Store store, int tableId) {
        this.store = store;
        this.tableId = tableId;
    }

    /** The committed size; writers of other items of the collection may be about to change it. */
    public long bytes(byte[] collectionPrefix) {
        return Math.max(0, Counters.decode(store.get(StatsKeys.collection(tableId, collectionPrefix))));
    }

    /** Adds the change to batch, so that it commits with the write it counts. */
    public void addTo(WriteBatch batch, byte[] collectionPrefix, long deltaBytes) {
        batch.add(StatsKeys.collection(tableId, collectionPrefix), deltaBytes);
    }
}
