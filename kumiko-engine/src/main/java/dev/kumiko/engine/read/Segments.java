package dev.kumiko.engine.read;

import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import org.jspecify.annotations.Nullable;

/**
 * Parallel Scan: TotalSegments splits the unsigned 32-bit partition-key hash space into contiguous
 * ranges, so that the segments together cover every item exactly once.
 */
public final class Segments {
    public static final long TOTAL_SEGMENTS_MAX = 1_000_000;
    private static final long HASH_SPACE = 1L << 32;

    private Segments() {}

    /** Checks the pair after the member constraints (which cover the numeric ranges). */
    static void check(@Nullable Long segment, @Nullable Long totalSegments) {
        if (segment != null && totalSegments == null) {
            throw DynamoException.validation("The TotalSegments parameter is required but was not present in the "
                    + "request when Segment parameter is present");
        }
        if (segment == null && totalSegments != null) {
            throw DynamoException.validation("The Segment parameter is required but was not present in the request "
                    + "when parameter TotalSegments is present");
        }
        if (segment != null && totalSegments != null && segment >= totalSegments) {
            throw DynamoException.validation("The Segment parameter is zero-based and must be less than parameter "
                    + "TotalSegments: Segment: " + segment + " is not less than TotalSegments: " + totalSegments);
        }
    }

    /**
     * The whole range of a table's items or an index's entries (space and id), or one segment's
     * part of it; both lay out their keys as space, id, 32-bit hash.
     */
    static KeyRange range(byte space, int id, @Nullable Long segment, @Nullable Long totalSegments) {
        if (segment == null || totalSegments == null) { // both or neither, by check
            return new KeyRange(KeySpace.prefix(space, id), KeySpace.prefixEnd(space, id));
        }
        long first = hashStart(segment, totalSegments);
        long next = hashStart(segment + 1, totalSegments);
        byte[] start = hashKey(space, id, first);
        byte[] end = next >= HASH_SPACE ? KeySpace.prefixEnd(space, id) : hashKey(space, id, next);
        return new KeyRange(start, end);
    }

    private static long hashStart(long segment, long total) {
        return segment * HASH_SPACE / total;
    }

    private static byte[] hashKey(byte space, int id, long hash) {
        return new ByteSink(9)
                .put(space)
                .putIntBigEndian(id)
                .putIntBigEndian((int) hash)
                .toArray();
    }
}
