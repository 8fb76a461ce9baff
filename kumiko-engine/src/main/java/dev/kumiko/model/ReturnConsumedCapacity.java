package dev.kumiko.model;

import org.jspecify.annotations.Nullable;

/**
 * ReturnConsumedCapacity of every data-plane operation. The constants are the wire names, declared
 * in the order DynamoDB lists the set in constraint messages.
 */
public enum ReturnConsumedCapacity {
    INDEXES,
    TOTAL,
    NONE;

    /** Whether the answer carries ConsumedCapacity at all (TOTAL or INDEXES). */
    public static boolean reported(@Nullable ReturnConsumedCapacity r) {
        return r == TOTAL || r == INDEXES;
    }
}
