package dev.kumiko.codec;

/**
 * The stored item format, named once for the codec, the size walker and the server's JSON writer:
 * a version byte, the item's size by DynamoDB's rules as a varint (version 2), a varint attribute
 * count, then (name, value) pairs. A value is a type tag and its payload; strings, binaries and
 * numbers are varint-length-prefixed bytes (numbers as their normalized text), sets and lists a
 * varint count and their elements, maps as the item itself.
 *
 * <p>The size is stored because a Query or Scan page needs every item's size (its 1 MB limit and
 * its capacity units), and walking an item to sum it was about a twentieth of a page's CPU. Items
 * written before it (version 1, no size) are still read, their size walked.
 */
public final class ItemFormat {
    /** What the codec writes: the size follows the version byte. */
    public static final int FORMAT_VERSION = 2;
    /** Read, never written: no size after the version byte. */
    public static final int FORMAT_VERSION_UNSIZED = 1;

    public static final int TAG_S = 1,
            TAG_N = 2,
            TAG_B = 3,
            TAG_SS = 4,
            TAG_NS = 5,
            TAG_BS = 6,
            TAG_M = 7,
            TAG_L = 8,
            TAG_NULL = 9,
            TAG_TRUE = 10,
            TAG_FALSE = 11;

    private ItemFormat() {}
}
