package dev.kumiko.ignite;

import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Bytes;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The colocation group of a key: the prefix that decides its Ignite partition. An item
 * collection (every item of one partition key, and its local index entries) shares the prefix
 * {@code space tableId hash(pk)}, so its items live in one partition and a Query or a conditional
 * write of one collection touches one Raft group. A table's change log shares {@code 0x04 tableId}
 * so that a stream reads one partition in order. Any other key is its own group, which spreads
 * the catalog, counters and tokens over the cluster.
 */
final class Colocation {
    /** One space byte, a 4-byte table or index id, the partition key's 4-byte hash. */
    static final int COLLECTION_PREFIX_BYTES = 1 + 4 + 4;
    /** One space byte and a 4-byte table id. */
    static final int TABLE_PREFIX_BYTES = 1 + 4;

    private Colocation() {}

    static byte[] groupOf(byte[] key) {
        int length = prefixLength(key);
        return length == key.length ? key : Arrays.copyOf(key, length);
    }

    /**
     * The one colocation group every key of [start, end) belongs to, when the range lies inside an
     * item collection (a Query of one partition key, of a table or an index); null when it may
     * span groups.
     */
    static byte @Nullable [] groupOfRange(byte[] start, byte @Nullable [] end) {
        if (end == null || start.length < COLLECTION_PREFIX_BYTES) {
            return null;
        }
        if (start[0] != KeySpace.ITEMS && start[0] != KeySpace.INDEX) {
            return null;
        }
        byte[] group = Arrays.copyOf(start, COLLECTION_PREFIX_BYTES);
        byte[] groupEnd = Bytes.prefixEnd(group);
        return groupEnd != null && Bytes.ORDER.compare(end, groupEnd) <= 0 ? group : null;
    }

    private static int prefixLength(byte[] key) {
        if (key.length == 0) {
            return 0;
        }
        byte space = key[0];
        if ((space == KeySpace.ITEMS || space == KeySpace.INDEX) && key.length > COLLECTION_PREFIX_BYTES) {
            return COLLECTION_PREFIX_BYTES;
        }
        if (space == KeySpace.CHANGE_LOG && key.length > TABLE_PREFIX_BYTES) {
            return TABLE_PREFIX_BYTES;
        }
        return key.length;
    }
}
