package dev.kumiko.server.protocol;

import dev.kumiko.codec.ItemFormat;
import dev.kumiko.codec.ItemReader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Writes a stored item as DynamoDB JSON ({"name":{"S":"..."},...}) straight from its stored
 * bytes, so a read that returns whole items never builds AttributeValues. Strings are stored as
 * UTF-8 and copied as is; '"', '\\', control characters and characters above U+FFFF are
 * escaped exactly as the server's JSON generator (Jackson) escapes them, so both write the same bytes.
 */
final class ItemJson {
    /** DynamoDB nests documents at most 32 levels; stored items cannot be deeper than this. */
    private static final int DEPTH_MAX = 64;

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OPEN_B = ascii("{\"B\":"),
            OPEN_SS = ascii("{\"SS\":["),
            OPEN_NS = ascii("{\"NS\":["),
            OPEN_BS = ascii("{\"BS\":["),
            OPEN_M = ascii("{\"M\":"),
            OPEN_L = ascii("{\"L\":["),
            NULL = ascii("{\"NULL\":true}"),
            TRUE = ascii("{\"BOOL\":true}"),
            FALSE = ascii("{\"BOOL\":false}");

    /** {"S":" and {"N":" as little-endian words, two bytes of padding above them. */
    private static final long OPEN_S_WORD = word("{\"S\":\""), OPEN_N_WORD = word("{\"N\":\"");

    private static final int OPEN_SCALAR_BYTES = 6;
    /** ":{"S":" and ":{"N":": a name's closing quote and colon, then a scalar's opening, eight bytes. */
    private static final long CLOSE_NAME_OPEN_S_WORD = word("\":{\"S\":\""),
            CLOSE_NAME_OPEN_N_WORD = word("\":{\"N\":\"");
    /** Bytes that end a copied run: controls, '"', '\\' and the lead byte of a 4-byte sequence. */
    private static final boolean[] SPECIAL = specialBytes();
    /** Eight bytes of a stored item at any offset, as one long (unaligned plain reads are allowed). */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Eight 'A's: fills the word of a string shorter than eight bytes with bytes that need no escape. */
    private static final long PLAIN_FILL = 0x4141414141414141L;

    private ItemJson() {}

    private static boolean[] specialBytes() {
        boolean[] special = new boolean[256];
        for (int b = 0; b < 0x20; b++) {
            special[b] = true;
        }
        special['"'] = true;
        special['\\'] = true;
        for (int b = 0xF0; b <= 0xF7; b++) {
            special[b] = true;
        }
        return special;
    }

    /** Appends the item's JSON object to {@code out}. */
    public static void write(byte[] encoded, JsonBytes out) {
        ItemReader in = ItemReader.of(encoded);
        writeMap(in, out, 0);
        assert in.atEnd() : "trailing bytes after the item";
    }

    private static void writeMap(ItemReader in, JsonBytes out, int depth) {
        if (depth > DEPTH_MAX) {
            throw new IllegalStateException("corrupt item: nested deeper than " + DEPTH_MAX);
        }
        int count = in.varint();
        out.put('{');
        int i = plainScalars(in, out, 0, count);
        while (i < count) {
            name(in, out, i > 0);
            writeValue(in, out, depth);
            i = plainScalars(in, out, i + 1, count);
        }
        out.put('}');
    }

    /**
     * Writes the map's attributes from index {@code i} on for as long as each is a string or a
     * number whose name and value need no escape and are shorter than 128 bytes (a one-byte length),
     * which is what most items hold, and answers the index of the first attribute it left for the
     * general path, with {@code in} at its start. The loop keeps its positions in locals and writes
     * <code>":{"S":"</code> as one word: per attribute it checks the room once, where the general path
     * reads the lengths through the reader and reserves room for the name and the value apart.
     */
    private static int plainScalars(ItemReader in, JsonBytes out, int i, int count) {
        byte[] src = in.buffer();
        int from = in.position();
        int pos = from;
        byte[] dst = out.buffer();
        int at = out.size();
        for (; i < count; i++) {
            int nameLength = src[pos]; // a one-byte length is below 128, so it reads non-negative
            int nameEnd = pos + 1 + nameLength;
            if (nameLength < 0 || nameEnd + 1 >= src.length) {
                break;
            }
            int tag = src[nameEnd];
            int valueLength = src[nameEnd + 1];
            if ((tag != ItemFormat.TAG_S && tag != ItemFormat.TAG_N) || valueLength < 0) {
                break;
            }
            // A comma and a quote, the name, ":{"S":" as a word, the value, '"}', and the last
            // word store's eight bytes past the end.
            int roomBytes = 2 + nameLength + Long.BYTES + valueLength + 2 + Long.BYTES;
            if (at + roomBytes > dst.length) {
                out.size(at);
                dst = out.reserve(roomBytes);
            }
            int start = at;
            if (i > 0) {
                dst[at++] = ',';
            }
            dst[at++] = '"';
            int valueEnd = nameEnd + 2 + valueLength;
            if (!copyPlain(src, pos + 1, nameEnd, dst, at)) {
                at = start;
                break;
            }
            at += nameLength;
            WORDS.set(dst, at, tag == ItemFormat.TAG_S ? CLOSE_NAME_OPEN_S_WORD : CLOSE_NAME_OPEN_N_WORD);
            at += Long.BYTES;
            if (!copyPlain(src, nameEnd + 2, valueEnd, dst, at)) {
                at = start;
                break;
            }
            at += valueLength;
            dst[at] = '"';
            dst[at + 1] = '}';
            at += 2;
            pos = valueEnd;
        }
        out.size(at);
        in.skip(pos - from);
        return i;
    }

    /** ,"name": (the comma unless first), under one reservation when the name needs no escape. */
    private static void name(ItemReader in, JsonBytes out, boolean comma) {
        int length = in.skipSlice();
        byte[] src = in.buffer();
        int end = in.position();
        // A comma, two quotes, the colon, and the last word's store up to eight bytes past the name.
        byte[] dst = out.reserve(length + 4 + Long.BYTES);
        int at = out.size();
        int start = at;
        if (comma) {
            dst[at++] = ',';
        }
        dst[at] = '"';
        if (copyPlain(src, end - length, end, dst, at + 1)) {
            at += 1 + length;
            dst[at] = '"';
            dst[at + 1] = ':';
            out.size(at + 2);
            return;
        }
        out.size(start);
        if (comma) {
            out.put(',');
        }
        out.put('"');
        escaped(src, end - length, end, out);
        out.put('"').put(':');
    }

    /** {"S":"text"} or {"N":"digits"}: the opening as one word store, under one reservation. */
    private static void scalar(ItemReader in, JsonBytes out, long openWord) {
        int length = in.skipSlice();
        byte[] src = in.buffer();
        int end = in.position();
        // The opening's word (eight bytes, six of them meant), the string, '"}' and a word past it.
        byte[] dst = out.reserve(length + Long.BYTES + 2 + Long.BYTES);
        int at = out.size();
        WORDS.set(dst, at, openWord);
        if (copyPlain(src, end - length, end, dst, at + OPEN_SCALAR_BYTES)) {
            at += OPEN_SCALAR_BYTES + length;
            dst[at] = '"';
            dst[at + 1] = '}';
            out.size(at + 2);
            return;
        }
        out.size(at + OPEN_SCALAR_BYTES);
        escaped(src, end - length, end, out);
        out.put('"').put('}');
    }

    private static void writeValue(ItemReader in, JsonBytes out, int depth) {
        int tag = in.u8();
        switch (tag) {
            case ItemFormat.TAG_S -> scalar(in, out, OPEN_S_WORD);
            case ItemFormat.TAG_N -> scalar(in, out, OPEN_N_WORD);
            case ItemFormat.TAG_B -> {
                out.put(OPEN_B);
                base64(in, out);
                out.put('}');
            }
            case ItemFormat.TAG_SS, ItemFormat.TAG_NS -> {
                out.put(tag == ItemFormat.TAG_SS ? OPEN_SS : OPEN_NS);
                int n = in.varint();
                for (int i = 0; i < n; i++) {
                    comma(out, i);
                    quoted(in, out);
                }
                out.put(']').put('}');
            }
            case ItemFormat.TAG_BS -> {
                out.put(OPEN_BS);
                int n = in.varint();
                for (int i = 0; i < n; i++) {
                    comma(out, i);
                    base64(in, out);
                }
                out.put(']').put('}');
            }
            case ItemFormat.TAG_M -> {
                out.put(OPEN_M);
                writeMap(in, out, depth + 1);
                out.put('}');
            }
            case ItemFormat.TAG_L -> {
                out.put(OPEN_L);
                int n = in.varint();
                for (int i = 0; i < n; i++) {
                    comma(out, i);
                    writeValue(in, out, depth + 1);
                }
                out.put(']').put('}');
            }
            case ItemFormat.TAG_NULL -> out.put(NULL);
            case ItemFormat.TAG_TRUE -> out.put(TRUE);
            case ItemFormat.TAG_FALSE -> out.put(FALSE);
            default -> throw new IllegalStateException("corrupt item: unknown tag " + tag);
        }
    }

    private static void comma(JsonBytes out, int index) {
        if (index > 0) {
            out.put(',');
        }
    }

    /**
     * A length-prefixed UTF-8 slice as a JSON string. Most stored text has nothing to escape: such a
     * string is copied whole words at a time ({@link #copyPlain}); one that may hold a byte to escape
     * is written by {@link #escaped}.
     */
    private static void quoted(ItemReader in, JsonBytes out) {
        int length = in.skipSlice();
        byte[] src = in.buffer();
        int end = in.position();
        // Two quotes, and the last word's store may reach eight bytes past the string.
        byte[] dst = out.reserve(length + 2 + Long.BYTES);
        int at = out.size();
        dst[at] = '"';
        if (copyPlain(src, end - length, end, dst, at + 1)) {
            dst[at + 1 + length] = '"';
            out.size(at + length + 2);
            return;
        }
        out.put('"');
        escaped(src, end - length, end, out);
        out.put('"');
    }

    /**
     * Copies src[from, end) to dst at {@code at} in whole words and answers true if none of its
     * bytes needs an escape; false (and bytes of no meaning written) if one may. The copy's test is
     * the cheaper {@link #notPlainBits}; only a string it flags (one with a character outside
     * ASCII, mostly) is read a second time with the exact one. dst has room for
     * eight bytes past the string. A string shorter than a word is read as the word that ends with
     * it, so that its check is one word test too; only a string within the item's first eight bytes
     * (the first attribute name, when it is short) has no such word.
     */
    private static boolean copyPlain(byte[] src, int from, int end, byte[] dst, int at) {
        int length = end - from;
        if (length < Long.BYTES) {
            if (end < Long.BYTES) {
                return false;
            }
            // The string's bytes moved down to the word's low end, the bytes above them 'A's.
            long word = (((long) WORDS.get(src, end - Long.BYTES) >>> (8 * (Long.BYTES - 1 - length))) >>> 8)
                    | (PLAIN_FILL << (8 * length));
            WORDS.set(dst, at, word);
            return notPlainBits(word) == 0 || specialBits(word) == 0;
        }
        // The last word may overlap the one before it; every byte is checked at least once.
        long last = (long) WORDS.get(src, end - Long.BYTES);
        long special = notPlainBits(last);
        for (int i = from; i < end - Long.BYTES; i += Long.BYTES) {
            long word = (long) WORDS.get(src, i);
            special |= notPlainBits(word);
            WORDS.set(dst, at + i - from, word);
        }
        WORDS.set(dst, at + length - Long.BYTES, last);
        return special == 0 || noSpecialWord(src, from, end);
    }

    /** Whether no word of src[from, end) (at least eight bytes) holds a byte {@link #specialBits} flags. */
    private static boolean noSpecialWord(byte[] src, int from, int end) {
        long special = specialBits((long) WORDS.get(src, end - Long.BYTES));
        for (int i = from; i < end - Long.BYTES; i += Long.BYTES) {
            special |= specialBits((long) WORDS.get(src, i));
        }
        return special == 0;
    }

    /**
     * src[from, end) with its escapes: runs without one are copied at once, found eight bytes at a
     * time where a word holds none.
     */
    private static void escaped(byte[] buf, int from, int end, JsonBytes out) {
        int run = from;
        int i = from;
        while (i < end) {
            if (i <= end - Long.BYTES && !mayHoldSpecial((long) WORDS.get(buf, i))) {
                i += Long.BYTES;
                continue;
            }
            int b = buf[i];
            if (!SPECIAL[b & 0xFF]) {
                i++;
                continue;
            }
            out.put(buf, run, i - run);
            if (b < 0) {
                supplementary(out, buf, i);
                i += 4;
            } else {
                escape(out, b);
                i++;
            }
            run = i;
        }
        out.put(buf, run, end - run);
    }

    /**
     * Whether any of the word's eight bytes may be {@link #SPECIAL}: below 0x20, '"', '\\', or
     * with its top four bits set (0xF0-0xFF; only 0xF0-0xF7 occur in UTF-8, and the byte loop
     * decides). Never false for a word that holds one; may be true for one that does not (a
     * borrow can carry into a higher byte), which only sends that word through the byte loop.
     */
    static boolean mayHoldSpecial(long word) {
        return specialBits(word) != 0;
    }

    /**
     * The high bit of each byte that is not plain ASCII, or may not be: a control, '"', '\\', or
     * any byte from 0x80 up; 0 if none. Coarser than {@link #specialBits} and cheaper: the copy of
     * every string runs it on each of its words, and a string of ASCII (most keys, numbers and
     * names) then needs no other test.
     */
    private static long notPlainBits(long word) {
        long controlOrHigh = (word - 0x2020202020202020L) | word;
        long quote = zeroBytes(word ^ 0x2222222222222222L);
        long backslash = zeroBytes(word ^ 0x5C5C5C5C5C5C5C5CL);
        return (controlOrHigh | quote | backslash) & 0x8080808080808080L;
    }

    /** The high bit of each of the word's bytes that may be special (see {@link #mayHoldSpecial}); 0 if none. */
    private static long specialBits(long word) {
        long control = (word - 0x2020202020202020L) & ~word;
        long quote = zeroBytes(word ^ 0x2222222222222222L);
        long backslash = zeroBytes(word ^ 0x5C5C5C5C5C5C5C5CL);
        long fourByteLead = word & word << 1 & word << 2 & word << 3;
        return (control | quote | backslash | fourByteLead) & 0x8080808080808080L;
    }

    /** The high bit of each byte that may be zero (exact for the lowest zero byte; see above). */
    private static long zeroBytes(long word) {
        return (word - 0x0101010101010101L) & ~word;
    }

    /** JSON's short escapes where they exist, else \\u00XX (upper-case hex, as Jackson writes it). */
    private static void escape(JsonBytes out, int b) {
        out.put('\\');
        switch (b) {
            case '"', '\\' -> out.put(b);
            case '\b' -> out.put('b');
            case '\t' -> out.put('t');
            case '\n' -> out.put('n');
            case '\f' -> out.put('f');
            case '\r' -> out.put('r');
            default -> out.put('u').put('0').put('0').put(HEX[b >> 4]).put(HEX[b & 0xF]);
        }
    }

    /**
     * A 4-byte sequence (a code point above U+FFFF) as its escaped UTF-16 surrogate pair, which is
     * how Jackson writes such characters; stored strings are valid UTF-8 (String.getBytes wrote them).
     */
    private static void supplementary(JsonBytes out, byte[] buf, int at) {
        int codePoint = ((buf[at] & 0x07) << 18)
                | ((buf[at + 1] & 0x3F) << 12)
                | ((buf[at + 2] & 0x3F) << 6)
                | (buf[at + 3] & 0x3F);
        assert codePoint > 0xFFFF && codePoint <= Character.MAX_CODE_POINT : codePoint;
        unicodeEscape(out, Character.highSurrogate(codePoint));
        unicodeEscape(out, Character.lowSurrogate(codePoint));
    }

    private static void unicodeEscape(JsonBytes out, char c) {
        out.put('\\')
                .put('u')
                .put(HEX[c >> 12])
                .put(HEX[c >> 8 & 0xF])
                .put(HEX[c >> 4 & 0xF])
                .put(HEX[c & 0xF]);
    }

    private static void base64(ItemReader in, JsonBytes out) {
        int length = in.skipSlice();
        ByteBuffer encoded = Base64.getEncoder().encode(ByteBuffer.wrap(in.buffer(), in.position() - length, length));
        out.put('"');
        out.put(encoded.array(), encoded.arrayOffset() + encoded.position(), encoded.remaining());
        out.put('"');
    }

    private static long word(String s) {
        byte[] bytes = ascii(s);
        assert bytes.length <= Long.BYTES;
        long w = 0;
        for (int i = bytes.length - 1; i >= 0; i--) {
            w = w << 8 | (bytes[i] & 0xFF);
        }
        return w;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
