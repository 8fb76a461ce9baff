package dev.kumiko.catalog;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import java.util.Arrays;

/**
 * Where a table's statistics live in the store: counters ({@link dev.kumiko.storage.Counters})
 * that every write adjusts in its own commit, so they are current after a crash, shared by every
 * engine over the store, and read at open without a scan. All under the table's id, so dropping
 * the table drops them with one range delete.
 */
final class StatsKeys {
    static final byte ITEM_COUNT = 0;
    static final byte ITEM_BYTES = 1;
    static final byte INDEX_COUNT = 2;
    static final byte INDEX_BYTES = 3;
    static final byte COLLECTION_BYTES = 4;
    /** Present once the counters are kept: a table from before them is counted once at open. */
    static final byte KEPT = 5;
    /** Reserved: the change log's sequence counter (engine.changelog.SequenceCounter), not a sum. */
    static final byte CHANGE_LOG_NEXT = 6;

    private StatsKeys() {}

    static byte[] table(int tableId, byte kind) {
        return new ByteSink(6)
                .put(KeySpace.STATS)
                .putIntBigEndian(tableId)
                .put(kind)
                .toArray();
    }

    static byte[] index(int tableId, byte kind, int indexId) {
        return new ByteSink(10)
                .put(KeySpace.STATS)
                .putIntBigEndian(tableId)
                .put(kind)
                .putIntBigEndian(indexId)
                .toArray();
    }

    /**
     * A collection's counter: the collection's storage prefix (items space, table id, hash and
     * encoded partition key) with the stats space and kind in front of the hash.
     */
    static byte[] collection(int tableId, byte[] collectionPrefix) {
        byte[] suffix = Arrays.copyOfRange(collectionPrefix, 5, collectionPrefix.length);
        return new ByteSink(6 + suffix.length)
                .put(KeySpace.STATS)
                .putIntBigEndian(tableId)
                .put(COLLECTION_BYTES)
                .put(suffix)
                .toArray();
    }
}
