package dev.kumiko.codec;

import static dev.kumiko.codec.ItemFormat.FORMAT_VERSION;
import static dev.kumiko.codec.ItemFormat.TAG_B;
import static dev.kumiko.codec.ItemFormat.TAG_BS;
import static dev.kumiko.codec.ItemFormat.TAG_FALSE;
import static dev.kumiko.codec.ItemFormat.TAG_L;
import static dev.kumiko.codec.ItemFormat.TAG_M;
import static dev.kumiko.codec.ItemFormat.TAG_N;
import static dev.kumiko.codec.ItemFormat.TAG_NS;
import static dev.kumiko.codec.ItemFormat.TAG_NULL;
import static dev.kumiko.codec.ItemFormat.TAG_S;
import static dev.kumiko.codec.ItemFormat.TAG_SS;
import static dev.kumiko.codec.ItemFormat.TAG_TRUE;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.PatchedItem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The compact binary form items are stored in: a version byte and the item's size (see
 * {@link ItemFormat}), then a varint attribute count and (name, value) pairs. A value is a type
 * tag and its payload; strings, binaries and numbers are length-prefixed (numbers as their
 * normalized text, which is also what the wire needs).
 */
public final class ItemCodec {
    /** Room for a typical item; a thread's buffer grows for a larger one. */
    private static final int SCRATCH_START_BYTES = 1024;
    /** A buffer grown past this by one large item is dropped after it instead of kept per thread. */
    private static final int SCRATCH_KEEP_MAX_BYTES = 64 * 1024;
    /** What {@link #encode(Map)} passes on: the size is walked from the encoded attributes. */
    private static final long SIZE_UNKNOWN = -1;
    /**
     * Each thread encodes into a buffer of its own and copies out the exact bytes, instead of
     * starting a new buffer (and growing it) per item: a BatchWriteItem encodes 25.
     */
    private static final ThreadLocal<ByteSink> SCRATCH =
            ThreadLocal.withInitial(() -> new ByteSink(SCRATCH_START_BYTES));

    /**
     * The most changes a patched item is written with its stored attributes' bytes copied: each
     * stored name is compared with every changed one, so an update of many attributes is encoded
     * from its merged map instead.
     */
    static final int SPLICED_CHANGES_MAX = 16;

    private ItemCodec() {}

    /** The item's stored bytes: the header (version and size, see {@link ItemFormat}), then its attributes. */
    public static byte[] encode(Map<String, AttributeValue> item) {
        return encode(item, SIZE_UNKNOWN);
    }

    /**
     * The item's bytes in this format, without a copy where it has them already (a stored item,
     * {@link EncodedItem}): for a caller that only reads them, such as a change record that copies
     * the old item into its own bytes. The caller must not change the array.
     */
    public static byte[] encodedForm(Map<String, AttributeValue> item) {
        return isCurrentForm(item) ? ((EncodedItem) item).encoded() : encode(item);
    }

    /** A stored item whose bytes are in this format already (an older one lacks the size header). */
    private static boolean isCurrentForm(Map<String, AttributeValue> item) {
        return item instanceof EncodedItem stored && stored.encoded()[0] == FORMAT_VERSION;
    }

    /**
     * As {@link #encode(Map)}, for an item whose DynamoDB size the caller has computed already
     * ({@code ItemSize.of}, which every write checks against the 400 KB limit): the encoder then
     * does not walk the encoded attributes for it again (1 % of a BatchWriteItem's CPU).
     */
    public static byte[] encode(Map<String, AttributeValue> item, long sizeBytes) {
        assert sizeBytes == SIZE_UNKNOWN || sizeBytes >= 0 : sizeBytes;
        if (isCurrentForm(item)) {
            // Encoding its decoded map would give these bytes again (a restore writes every item
            // of a backup this way). An older format is encoded anew.
            EncodedItem stored = (EncodedItem) item;
            assert sizeBytes == SIZE_UNKNOWN || sizeBytes == stored.sizeBytes() : sizeBytes;
            return Arrays.copyOf(stored.encoded(), stored.encoded().length);
        }
        ByteSink out = SCRATCH.get();
        try {
            if (item instanceof PatchedItem patched
                    && patched.base() instanceof EncodedItem stored
                    && patched.changeCount() <= SPLICED_CHANGES_MAX) {
                encodeSpliced(out, patched, stored);
            } else {
                encodeMap(out, item);
            }
            int attributesBytes = out.size();
            assert sizeBytes == SIZE_UNKNOWN || sizeBytes == EncodedItemSize.ofAttributes(out.buffer())
                    : "given size " + sizeBytes + " is not the encoded one";
            long size = sizeBytes != SIZE_UNKNOWN ? sizeBytes : EncodedItemSize.ofAttributes(out.buffer());
            // The size is known only after the attributes: its varint goes after them in the
            // scratch buffer, and the copy out puts it in front.
            out.putVarint(Math.toIntExact(size));
            int sizeVarintBytes = out.size() - attributesBytes;
            byte[] bytes = new byte[1 + sizeVarintBytes + attributesBytes];
            bytes[0] = FORMAT_VERSION;
            System.arraycopy(out.buffer(), attributesBytes, bytes, 1, sizeVarintBytes);
            System.arraycopy(out.buffer(), 0, bytes, 1 + sizeVarintBytes, attributesBytes);
            return bytes;
        } finally {
            out.reset(SCRATCH_START_BYTES, SCRATCH_KEEP_MAX_BYTES); // after a failed encode too
        }
    }

    public static Map<String, AttributeValue> decode(byte[] bytes) {
        ItemReader in = ItemReader.of(bytes);
        return decodeMap(in);
    }

    /**
     * One top-level attribute of an encoded item, or null: the other attributes' values are skipped,
     * not decoded, so a write that looks at a few attributes of the item it replaces (a condition on
     * the key, an index's key attributes) pays for those alone.
     */
    static @Nullable AttributeValue decodeAttribute(byte[] bytes, String name) {
        ItemReader in = ItemReader.of(bytes);
        return seekAttribute(in, name) ? decodeValue(in) : null;
    }

    /** Moves in to attribute name's value and answers true, or answers false if the item has none. */
    private static boolean seekAttribute(ItemReader in, String name) {
        int count = in.varint();
        for (int i = 0; i < count; i++) {
            if (in.sliceEquals(name)) {
                return true;
            }
            skipValue(in);
        }
        return false;
    }

    /**
     * Whether the encoded item's attribute name equals value (not null), as far as the bytes tell
     * without decoding: a string or binary value compares as its bytes; a stored value of another
     * type, or no such attribute, is DIFFERENT. A number is SAME when its stored text is the same and
     * UNKNOWN otherwise (equal numbers may be written differently); so is a value of a type no index
     * key has.
     */
    static EncodedEquality.Answer compareAttribute(byte[] bytes, String name, AttributeValue value) {
        assert value != null;
        ItemReader in = ItemReader.of(bytes);
        return seekAttribute(in, name) ? compareValue(in, value) : EncodedEquality.Answer.DIFFERENT;
    }

    private static EncodedEquality.Answer compareValue(ItemReader in, AttributeValue value) {
        int tag = in.u8();
        if (value instanceof AttributeValue.S s) {
            return tag == TAG_S && in.sliceEquals(s.value())
                    ? EncodedEquality.Answer.SAME
                    : EncodedEquality.Answer.DIFFERENT;
        }
        if (value instanceof AttributeValue.B b) {
            return tag == TAG_B && in.sliceEquals(b.value())
                    ? EncodedEquality.Answer.SAME
                    : EncodedEquality.Answer.DIFFERENT;
        }
        if (value instanceof AttributeValue.N n) {
            if (tag != TAG_N) {
                return EncodedEquality.Answer.DIFFERENT;
            }
            // Only the same text is certain: a different one is left to value equality rather than
            // assume that every stored number is in today's normalized form.
            return in.sliceEquals(n.value().toString()) ? EncodedEquality.Answer.SAME : EncodedEquality.Answer.UNKNOWN;
        }
        return EncodedEquality.Answer.UNKNOWN;
    }

    /** The number of top-level attributes, from the encoded item's header. */
    static int attributeCount(byte[] bytes) {
        return ItemReader.of(bytes).varint();
    }

    static void skipValue(ItemReader in) {
        int tag = in.u8();
        switch (tag) {
            case TAG_S, TAG_N, TAG_B -> in.skipSlice();
            case TAG_SS, TAG_NS, TAG_BS -> {
                int n = in.varint();
                for (int i = 0; i < n; i++) {
                    in.skipSlice();
                }
            }
            case TAG_M -> {
                int n = in.varint();
                for (int i = 0; i < n; i++) {
                    in.skipSlice();
                    skipValue(in);
                }
            }
            case TAG_L -> {
                int n = in.varint();
                for (int i = 0; i < n; i++) {
                    skipValue(in);
                }
            }
            case TAG_NULL, TAG_TRUE, TAG_FALSE -> {}
            default -> throw new IllegalStateException("corrupt item: unknown tag " + tag);
        }
    }

    /**
     * Writes an updated stored item as {@link #encodeMap} would write its merged map, without
     * decoding the attributes the update left alone: each is copied as its stored name and value
     * bytes, a changed one gets its new value in its place (or is left out, if removed), and the
     * added ones follow in the order they were set (with any removed and then set again).
     */
    private static void encodeSpliced(ByteSink out, PatchedItem patched, EncodedItem stored) {
        int changes = patched.changeCount();
        boolean[] placed = new boolean[changes];
        ItemReader in = ItemReader.of(stored.encoded());
        byte[] buf = in.buffer();
        int storedCount = in.varint();
        int count = splicedCount(patched, storedCount);
        out.putVarint(count);
        int written = 0;
        for (int i = 0; i < storedCount; i++) {
            int start = in.position();
            int nameBytes = in.varint();
            int nameStart = in.position();
            in.skip(nameBytes);
            int changed = changedIndex(buf, nameStart, nameBytes, patched);
            if (changed < 0) {
                skipValue(in);
                out.put(buf, start, in.position() - start);
                written++;
                continue;
            }
            skipValue(in);
            if (patched.movedToEnd(changed)) {
                continue; // removed and set again: written with the added ones
            }
            placed[changed] = true;
            AttributeValue value = patched.changedValue(changed);
            if (value != null) {
                out.put(buf, start, nameStart + nameBytes - start);
                encodeValue(out, value);
                written++;
            }
        }
        for (int j = 0; j < changes; j++) {
            AttributeValue value = patched.changedValue(j);
            if (!placed[j] && value != null) {
                putString(out, patched.changedName(j));
                encodeValue(out, value);
                written++;
            }
        }
        assert in.atEnd() && written == count : "spliced " + written + " of " + count + " attributes";
    }

    /** The stored count, plus the changes the stored item lacks, less the removals of ones it holds. */
    private static int splicedCount(PatchedItem patched, int storedCount) {
        int count = storedCount;
        for (int j = 0; j < patched.changeCount(); j++) {
            boolean held = patched.baseHolds(patched.changedName(j));
            boolean removed = patched.changedValue(j) == null;
            if (!removed && !held) {
                count++;
            } else if (removed && held) {
                count--;
            }
        }
        return count;
    }

    /** Which change the stored name at buf[start, start + bytes) is, or -1. */
    private static int changedIndex(byte[] buf, int start, int bytes, PatchedItem patched) {
        for (int j = 0; j < patched.changeCount(); j++) {
            if (ItemReader.utf8Equals(buf, start, bytes, patched.changedName(j))) {
                return j;
            }
        }
        return -1;
    }

    private static void encodeMap(ByteSink out, Map<String, AttributeValue> map) {
        out.putVarint(map.size());
        map.forEach(new AttributeWriter(out));
    }

    /**
     * Writes attributes as {@code Map.forEach} hands them over. A request's item is an unmodifiable
     * map, whose forEach walks the map inside, where a walk of its entry set wraps every entry in
     * a new object.
     */
    private static final class AttributeWriter implements BiConsumer<String, AttributeValue> {
        private final ByteSink out;

        AttributeWriter(ByteSink out) {
            this.out = out;
        }

        @Override
        public void accept(String name, AttributeValue value) {
            putString(out, name);
            encodeValue(out, value);
        }
    }

    private static void encodeValue(ByteSink out, AttributeValue v) {
        switch (v.type()) {
            case S -> {
                out.put(TAG_S);
                putString(out, ((AttributeValue.S) v).value());
            }
            case N -> {
                out.put(TAG_N);
                putString(out, ((AttributeValue.N) v).value().toString());
            }
            case B -> {
                out.put(TAG_B);
                putBytes(out, ((AttributeValue.B) v).value());
            }
            case SS -> {
                List<String> values = ((AttributeValue.SS) v).values();
                out.put(TAG_SS).putVarint(values.size());
                values.forEach(s -> putString(out, s));
            }
            case NS -> {
                List<DynamoNumber> values = ((AttributeValue.NS) v).values();
                out.put(TAG_NS).putVarint(values.size());
                values.forEach(n -> putString(out, n.toString()));
            }
            case BS -> {
                List<byte[]> values = ((AttributeValue.BS) v).values();
                out.put(TAG_BS).putVarint(values.size());
                values.forEach(b -> putBytes(out, b));
            }
            case M -> {
                out.put(TAG_M);
                encodeMap(out, ((AttributeValue.M) v).values());
            }
            case L -> {
                List<AttributeValue> values = ((AttributeValue.L) v).values();
                out.put(TAG_L).putVarint(values.size());
                values.forEach(e -> encodeValue(out, e));
            }
            case NULL -> out.put(TAG_NULL);
            case BOOL -> out.put(((AttributeValue.Bool) v).value() ? TAG_TRUE : TAG_FALSE);
        }
    }

    private static void putString(ByteSink out, String s) {
        putBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void putBytes(ByteSink out, byte[] b) {
        out.putVarint(b.length).put(b);
    }

    private static Map<String, AttributeValue> decodeMap(ItemReader in) {
        int count = in.varint();
        Map<String, AttributeValue> map = new LinkedHashMap<>(Math.max(4, count * 4 / 3 + 1));
        for (int i = 0; i < count; i++) {
            String name = in.string();
            map.put(name, decodeValue(in));
        }
        return Collections.unmodifiableMap(map);
    }

    private static AttributeValue decodeValue(ItemReader in) {
        int tag = in.u8();
        switch (tag) {
            case TAG_S:
                return new AttributeValue.S(in.string());
            case TAG_N:
                return new AttributeValue.N(DynamoNumber.parse(in.string()));
            case TAG_B:
                return new AttributeValue.B(in.bytes());
            case TAG_SS: {
                int n = in.varint();
                List<String> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(in.string());
                }
                return new AttributeValue.SS(Collections.unmodifiableList(values));
            }
            case TAG_NS: {
                int n = in.varint();
                List<DynamoNumber> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(DynamoNumber.parse(in.string()));
                }
                return new AttributeValue.NS(Collections.unmodifiableList(values));
            }
            case TAG_BS: {
                int n = in.varint();
                List<byte[]> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(in.bytes());
                }
                return new AttributeValue.BS(Collections.unmodifiableList(values));
            }
            case TAG_M:
                return new AttributeValue.M(decodeMap(in));
            case TAG_L: {
                int n = in.varint();
                List<AttributeValue> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(decodeValue(in));
                }
                return new AttributeValue.L(Collections.unmodifiableList(values));
            }
            case TAG_NULL:
                return AttributeValue.NULL;
            case TAG_TRUE:
                return AttributeValue.TRUE;
            case TAG_FALSE:
                return AttributeValue.FALSE;
            default:
                throw new IllegalStateException("corrupt item: unknown tag " + tag);
        }
    }
}
