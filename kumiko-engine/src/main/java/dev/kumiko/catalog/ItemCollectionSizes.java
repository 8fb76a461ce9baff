package dev.kumiko.catalog;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The size of each item collection (all items with one partition-key value, plus their LSI
 * entries) of a table that has local secondary indexes, which DynamoDB limits to 10 GB. Kept in
 * memory, keyed by the collection's storage prefix, and rebuilt at open; tables without LSIs keep
 * nothing here.
 */
public final class ItemCollectionSizes {
    private final ConcurrentHashMap<ByteBuffer, Long> bytesByCollection = new ConcurrentHashMap<>();

    public long bytes(byte[] collectionPrefix) {
        Long size = bytesByCollection.get(ByteBuffer.wrap(collectionPrefix));
        return size == null ? 0 : size;
    }

    /** Adds delta bytes atomically; returns the new size. An emptied collection is forgotten. */
    public long add(byte[] collectionPrefix, long deltaBytes) {
        long[] now = new long[1];
        bytesByCollection.compute(ByteBuffer.wrap(collectionPrefix.clone()), (k, size) -> {
            now[0] = (size == null ? 0 : size) + deltaBytes;
            return now[0] <= 0 ? null : now[0];
        });
        return Math.max(0, now[0]);
    }
}
