package dev.kumiko.catalog;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;

/**
 * Item count and size of a table or index, as two store counters that each write adjusts in its
 * own commit ({@link #addTo}). DynamoDB refreshes these about every six hours; Kumiko keeps them
 * current, which no test can tell apart from a refresh that just happened. Reading costs a store
 * read each (DescribeTable only).
 */
public final class TableStats {
    private final Store store;
    private final byte[] countKey;
    private final byte[] bytesKey;

    TableStats(Store store, byte[] countKey, byte[] bytesKey) {
        this.store = store;
        this.countKey = countKey;
        this.bytesKey = bytesKey;
    }

    /** Adds the change to batch, so that it commits with the write it counts. */
    public void addTo(WriteBatch batch, long items, long bytes) {
        batch.add(countKey, items).add(bytesKey, bytes);
    }

    public long itemCount() {
        return Math.max(0, Counters.decode(store.get(countKey)));
    }

    public long sizeBytes() {
        return Math.max(0, Counters.decode(store.get(bytesKey)));
    }

    /** Sets both counters, for the one count of a table from before the counters were kept. */
    void setIn(WriteBatch batch, long items, long bytes) {
        batch.put(countKey, Counters.encode(items)).put(bytesKey, Counters.encode(bytes));
    }
}
