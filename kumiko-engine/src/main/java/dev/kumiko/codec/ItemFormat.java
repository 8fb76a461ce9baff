package dev.kumiko.codec;

/**
 * The stored item format, named once for the codec, the size walker and the server's JSON writer:
 * a version byte, a varint attribute count, then (name, value) pairs. A value is a type tag and
 * its payload; strings, binaries and numbers are varint-length-prefixed bytes (numbers as their
 * normalized text), sets and lists a varint count and their elements, maps as the item itself.
 */
public final class ItemFormat {
    public static final int FORMAT_VERSION = 1;
    public static final int TAG_S = 1, TAG_N = 2, TAG_B = 3, TAG_SS = 4, TAG_NS = 5, TAG_BS = 6,
            TAG_M = 7, TAG_L = 8, TAG_NULL = 9, TAG_TRUE = 10, TAG_FALSE = 11;

    private ItemFormat() {}
}
