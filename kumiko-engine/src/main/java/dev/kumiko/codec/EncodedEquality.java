package dev.kumiko.codec;

import java.util.Arrays;

/**
 * Whether two encoded items hold the same attributes, answered from the bytes where the bytes can
 * tell: a PutItem over an item, or an UpdateItem, asks it of every index entry whose key did not
 * change, and decoding the stored item only to compare it was most of such a write's garbage.
 */
public final class EncodedEquality {
    /** The answer when the bytes cannot tell (attributes in another order, sets or maps differing). */
    public enum Answer {
        SAME,
        DIFFERENT,
        UNKNOWN
    }

    private EncodedEquality() {}

    /**
     * Each value has one stored form (numbers normalized), so equal items whose attributes are in
     * the same order have equal bytes, and a scalar value (S, N, B, BOOL, NULL) whose bytes differ is
     * a different value. Sets and maps may hold the same elements in another order, and an item may
     * hold its attributes in another order: those answer UNKNOWN, for the caller to compare maps.
     */
    public static Answer compare(byte[] a, byte[] b) {
        if (Arrays.equals(a, b)) {
            return Answer.SAME;
        }
        ItemReader x = ItemReader.of(a);
        ItemReader y = ItemReader.of(b);
        int count = x.varint();
        if (count != y.varint()) {
            return Answer.DIFFERENT; // an item holds each name once
        }
        boolean unknown = false;
        for (int i = 0; i < count; i++) {
            if (!sameSlice(x, y)) {
                return Answer.UNKNOWN; // names in another order: the maps may still be equal
            }
            int startX = x.position();
            int startY = y.position();
            int tag = x.buffer()[startX] & 0xFF;
            ItemCodec.skipValue(x);
            ItemCodec.skipValue(y);
            if (!Arrays.equals(a, startX, x.position(), b, startY, y.position())) {
                if (scalar(tag) || tag != (b[startY] & 0xFF)) {
                    return Answer.DIFFERENT;
                }
                unknown = true;
            }
        }
        return unknown ? Answer.UNKNOWN : Answer.SAME;
    }

    private static boolean sameSlice(ItemReader x, ItemReader y) {
        int nx = x.skipSlice();
        int ny = y.skipSlice();
        return nx == ny
                && Arrays.equals(
                        x.buffer(), x.position() - nx, x.position(), y.buffer(), y.position() - ny, y.position());
    }

    private static boolean scalar(int tag) {
        return tag == ItemFormat.TAG_S
                || tag == ItemFormat.TAG_N
                || tag == ItemFormat.TAG_B
                || tag == ItemFormat.TAG_NULL
                || tag == ItemFormat.TAG_TRUE
                || tag == ItemFormat.TAG_FALSE;
    }
}
