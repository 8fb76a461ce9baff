package dev.kumiko.codec;

/**
 * An item's size by DynamoDB's rules (see dev.kumiko.model.ItemSize), read from its stored bytes
 * without decoding: the header's, or walked (names, strings and binaries by their stored length,
 * numbers by the significant digits of their normalized text), which is also how the codec finds
 * the size it stores.
 */
public final class EncodedItemSize {
    private static final int CONTAINER_OVERHEAD_BYTES = 3;
    private static final int CONTAINER_ELEMENT_OVERHEAD_BYTES = 1;

    private EncodedItemSize() {}

    /** From the item's header; walked for an item written without one. */
    public static long of(byte[] encoded) {
        ItemReader in = ItemReader.of(encoded);
        long stored = in.storedSizeBytes();
        if (stored >= 0) {
            assert stored == walked(in) : "stored size " + stored + " is not the walked one";
            return stored;
        }
        return walked(in);
    }

    /** The size of the attributes at the start of buf (no header): what the codec stores. */
    static long ofAttributes(byte[] buf) {
        return attributes(ItemReader.ofAttributes(buf), 0);
    }

    private static long walked(ItemReader in) {
        long total = attributes(in, 0);
        assert in.atEnd() : "trailing bytes after the item";
        return total;
    }

    private static long attributes(ItemReader in, int elementOverheadBytes) {
        int count = in.varint();
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += in.skipSlice() + valueBytes(in) + elementOverheadBytes;
        }
        return total;
    }

    private static long valueBytes(ItemReader in) {
        int tag = in.u8();
        switch (tag) {
            case ItemFormat.TAG_S, ItemFormat.TAG_B:
                return in.skipSlice();
            case ItemFormat.TAG_N:
                return numberBytes(in);
            case ItemFormat.TAG_SS, ItemFormat.TAG_BS: {
                int n = in.varint();
                long total = 0;
                for (int i = 0; i < n; i++) {
                    total += in.skipSlice();
                }
                return total;
            }
            case ItemFormat.TAG_NS: {
                int n = in.varint();
                long total = 0;
                for (int i = 0; i < n; i++) {
                    total += numberBytes(in);
                }
                return total;
            }
            case ItemFormat.TAG_M:
                return CONTAINER_OVERHEAD_BYTES + attributes(in, CONTAINER_ELEMENT_OVERHEAD_BYTES);
            case ItemFormat.TAG_L: {
                int n = in.varint();
                long total = CONTAINER_OVERHEAD_BYTES;
                for (int i = 0; i < n; i++) {
                    total += valueBytes(in) + CONTAINER_ELEMENT_OVERHEAD_BYTES;
                }
                return total;
            }
            case ItemFormat.TAG_NULL, ItemFormat.TAG_TRUE, ItemFormat.TAG_FALSE:
                return 1;
            default:
                throw new IllegalStateException("corrupt item: unknown tag " + tag);
        }
    }

    /** 1 byte per two significant digits plus 1, as ItemSize.numberBytes. */
    private static int numberBytes(ItemReader in) {
        int length = in.skipSlice();
        return (significantDigits(in.buffer(), in.position() - length, length) + 1) / 2 + 1;
    }

    /**
     * Significant digits of a normalized plain number ("-0.0012", "1200", "100.5"): the digits from
     * the first non-zero one to the last non-zero one; zero has one.
     */
    static int significantDigits(byte[] text, int offset, int length) {
        int digitIndex = 0;
        int first = -1;
        int last = -1;
        for (int i = offset; i < offset + length; i++) {
            int c = text[i];
            if (c < '0' || c > '9') {
                continue; // sign or decimal point
            }
            if (c != '0') {
                if (first < 0) {
                    first = digitIndex;
                }
                last = digitIndex;
            }
            digitIndex++;
        }
        return first < 0 ? 1 : last - first + 1;
    }
}
