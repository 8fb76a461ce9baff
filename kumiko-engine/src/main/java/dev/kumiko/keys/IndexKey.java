package dev.kumiko.keys;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Builds storage keys of secondary-index entries: space, index id, hash of the encoded index
 * partition key, the encoded index key attributes (HASH attributes, then RANGE attributes), then
 * the encoded table key, which makes every entry unique and orders equal index keys by table key.
 * Encodings are self-delimiting, so concatenating them orders entries by the tuple of values. For
 * an LSI the index partition key is the table's, so its hash, and thus its Scan order, match the
 * table's.
 */
public final class IndexKey {
    /** Room for the head, the index key and the table key of a typical entry; longer ones grow once. */
    private static final int CAPACITY_BYTES = 96;

    private IndexKey() {}

    public static byte[] of(
            int indexId,
            List<AttributeValue> hashValues,
            List<AttributeValue> rangeValues,
            AttributeValue tablePartitionKey,
            @Nullable AttributeValue tableSortKey) {
        ByteSink out = partitionSink(indexId, hashValues);
        for (AttributeValue v : rangeValues) {
            KeyEncoding.encode(out, v);
        }
        KeyEncoding.encode(out, tablePartitionKey);
        if (tableSortKey != null) {
            KeyEncoding.encode(out, tableSortKey);
        }
        return out.toArray();
    }

    /** The prefix shared by every entry of one index partition. */
    public static byte[] partitionPrefix(int indexId, List<AttributeValue> hashValues) {
        return partitionSink(indexId, hashValues).toArray();
    }

    private static ByteSink partitionSink(int indexId, List<AttributeValue> hashValues) {
        assert !hashValues.isEmpty();
        ByteSink out = PartitionHead.start(KeySpace.INDEX, indexId, CAPACITY_BYTES);
        for (AttributeValue v : hashValues) {
            KeyEncoding.encode(out, v);
        }
        return PartitionHead.sealHash(out);
    }
}
