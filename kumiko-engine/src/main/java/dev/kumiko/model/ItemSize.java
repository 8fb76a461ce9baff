package dev.kumiko.model;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Item size by DynamoDB's documented rules (Developer Guide, "Item sizes and formats"): names and
 * strings by UTF-8 bytes, binaries by raw bytes, numbers 1 byte per two significant digits plus
 * 1, null and boolean 1 byte, lists and maps 3 bytes of overhead plus 1 byte per element.
 */
public final class ItemSize {
    /** DynamoDB's maximum item size: 400 KB, names and values included. */
    public static final int ITEM_SIZE_BYTES_MAX = 400 * 1024;

    private static final int CONTAINER_OVERHEAD_BYTES = 3;
    private static final int CONTAINER_ELEMENT_OVERHEAD_BYTES = 1;

    private ItemSize() {}

    public static long of(Map<String, AttributeValue> item) {
        if (item instanceof SizedItem sized) {
            return sized.sizeBytes();
        }
        Sum sum = new Sum();
        item.forEach(sum);
        return sum.bytes;
    }

    /**
     * Sums attributes as {@code Map.forEach} hands them over. A request's item is an unmodifiable
     * map, whose forEach walks the map inside, where a walk of its entry set wraps every entry in
     * a new object.
     */
    private static final class Sum implements BiConsumer<String, AttributeValue> {
        long bytes;

        @Override
        public void accept(String name, AttributeValue value) {
            bytes += attribute(name, value);
        }
    }

    /** The size of one attribute: its name plus its value. */
    public static long attribute(String name, AttributeValue value) {
        return Utf8.length(name) + valueBytes(value);
    }

    public static long valueBytes(AttributeValue v) {
        switch (v.type()) {
            case S:
                return Utf8.length(((AttributeValue.S) v).value());
            case N:
                return numberBytes(((AttributeValue.N) v).value());
            case B:
                return ((AttributeValue.B) v).value().length;
            case SS:
                return stringsBytes(((AttributeValue.SS) v).values());
            case NS:
                return numbersBytes(((AttributeValue.NS) v).values());
            case BS:
                return binariesBytes(((AttributeValue.BS) v).values());
            case M:
                return mapBytes(((AttributeValue.M) v).values());
            case L:
                return listBytes(((AttributeValue.L) v).values());
            case NULL:
            case BOOL:
                return 1;
            default:
                throw new AssertionError(v.type());
        }
    }

    public static int numberBytes(DynamoNumber n) {
        return (n.significantDigits() + 1) / 2 + 1;
    }

    private static long stringsBytes(List<String> values) {
        long total = 0;
        for (String s : values) {
            total += Utf8.length(s);
        }
        return total;
    }

    private static long numbersBytes(List<DynamoNumber> values) {
        long total = 0;
        for (DynamoNumber n : values) {
            total += numberBytes(n);
        }
        return total;
    }

    private static long binariesBytes(List<byte[]> values) {
        long total = 0;
        for (byte[] b : values) {
            total += b.length;
        }
        return total;
    }

    private static long mapBytes(Map<String, AttributeValue> values) {
        long total = CONTAINER_OVERHEAD_BYTES;
        for (Map.Entry<String, AttributeValue> e : values.entrySet()) {
            total += Utf8.length(e.getKey()) + valueBytes(e.getValue()) + CONTAINER_ELEMENT_OVERHEAD_BYTES;
        }
        return total;
    }

    private static long listBytes(List<AttributeValue> values) {
        long total = CONTAINER_OVERHEAD_BYTES;
        for (AttributeValue v : values) {
            total += valueBytes(v) + CONTAINER_ELEMENT_OVERHEAD_BYTES;
        }
        return total;
    }
}
