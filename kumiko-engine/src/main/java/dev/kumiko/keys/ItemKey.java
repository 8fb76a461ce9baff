package dev.kumiko.keys;

import dev.kumiko.model.AttributeValue;
import org.jspecify.annotations.Nullable;

/** Builds storage keys of items: space, table id, partition-key hash, encoded keys. */
public final class ItemKey {
    /** Room for the head and the typical key; a longer key grows the buffer once. */
    private static final int CAPACITY_BYTES = 64;

    private ItemKey() {}

    public static byte[] of(int tableId, AttributeValue partitionKey, @Nullable AttributeValue sortKey) {
        ByteSink out = partitionSink(tableId, partitionKey);
        if (sortKey != null) {
            KeyEncoding.encode(out, sortKey);
        }
        return out.toArray();
    }

    /** The prefix shared by every item of one partition (one item collection). */
    public static byte[] partitionPrefix(int tableId, AttributeValue partitionKey) {
        return partitionSink(tableId, partitionKey).toArray();
    }

    private static ByteSink partitionSink(int tableId, AttributeValue partitionKey) {
        ByteSink out = PartitionHead.start(KeySpace.ITEMS, tableId, CAPACITY_BYTES);
        KeyEncoding.encode(out, partitionKey);
        return PartitionHead.sealHash(out);
    }
}
