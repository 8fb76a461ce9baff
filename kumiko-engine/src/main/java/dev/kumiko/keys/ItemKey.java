package dev.kumiko.keys;

import dev.kumiko.model.AttributeValue;

/** Builds storage keys of items: space, table id, partition-key hash, encoded keys. */
public final class ItemKey {
    private ItemKey() {}

    public static byte[] of(int tableId, AttributeValue partitionKey, AttributeValue sortKey) {
        byte[] pk = KeyEncoding.encode(partitionKey);
        ByteSink out = new ByteSink(9 + pk.length + 16);
        out.put(KeySpace.ITEMS).putIntBigEndian(tableId).putIntBigEndian(KeyHash.of(pk)).put(pk);
        if (sortKey != null) {
            KeyEncoding.encode(out, sortKey);
        }
        return out.toArray();
    }

    /** The prefix shared by every item of one partition (one item collection). */
    public static byte[] partitionPrefix(int tableId, AttributeValue partitionKey) {
        byte[] pk = KeyEncoding.encode(partitionKey);
        return new ByteSink(9 + pk.length).put(KeySpace.ITEMS).putIntBigEndian(tableId)
                .putIntBigEndian(KeyHash.of(pk)).put(pk).toArray();
    }
}
