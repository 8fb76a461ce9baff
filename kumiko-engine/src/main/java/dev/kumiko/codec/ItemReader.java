package dev.kumiko.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A forward cursor over one stored item ({@link ItemFormat}); slices are read in place, without
 * copies. Public so that the server can write a stored item as JSON straight from its bytes.
 */
public final class ItemReader {
    private final byte[] buf;
    private int pos;
    /** The size the item's header holds; -1 for an item written without one. */
    private long storedSizeBytes = -1;

    private ItemReader(byte[] buf) {
        this.buf = buf;
    }

    /** A reader positioned at the attribute count, after the header (version byte and size), which it checks. */
    public static ItemReader of(byte[] bytes) {
        ItemReader in = new ItemReader(bytes);
        int version = in.u8();
        if (version == ItemFormat.FORMAT_VERSION) {
            in.storedSizeBytes = in.varint();
        } else if (version != ItemFormat.FORMAT_VERSION_UNSIZED) {
            throw new IllegalStateException("unknown item format version " + version);
        }
        return in;
    }

    /** A reader of attributes without a header, from the start of buf (the codec's scratch buffer). */
    static ItemReader ofAttributes(byte[] buf) {
        return new ItemReader(buf);
    }

    /** The item's size by DynamoDB's rules as its header holds it, or -1 if it has none (version 1). */
    long storedSizeBytes() {
        return storedSizeBytes;
    }

    public byte[] buffer() {
        return buf;
    }

    public int position() {
        return pos;
    }

    public boolean atEnd() {
        return pos == buf.length;
    }

    public int u8() {
        return buf[pos++] & 0xFF;
    }

    public int varint() {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = u8();
            result |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalStateException("corrupt item: varint too long");
    }

    /**
     * A slice's length prefix, checked always against the bytes left: a corrupt or cut item then
     * fails here, naming the fault, instead of reading past the slice into the next attribute
     * (where the array's own bounds would not catch it). One comparison per string, binary or
     * number read.
     */
    private int sliceLength() {
        int n = varint();
        if (n < 0 || n > buf.length - pos) {
            throw new IllegalStateException("corrupt item: a slice of " + n + " bytes at " + pos + " of " + buf.length);
        }
        return n;
    }

    /** Moves past {@code bytes} bytes that a caller read from {@link #buffer()} itself. */
    public void skip(int bytes) {
        if (bytes < 0 || bytes > buf.length - pos) {
            throw new IllegalStateException(
                    "corrupt item: a skip of " + bytes + " bytes at " + pos + " of " + buf.length);
        }
        pos += bytes;
    }

    /** Reads a length prefix and skips the payload; the payload starts at {@code position() - length}. */
    public int skipSlice() {
        int n = sliceLength();
        pos += n;
        return n;
    }

    /** Whether the next slice holds exactly bytes; reads past the slice either way. */
    boolean sliceEquals(byte[] bytes) {
        int n = sliceLength();
        int start = pos;
        pos += n;
        return Arrays.equals(buf, start, start + n, bytes, 0, bytes.length);
    }

    /**
     * Reads a length-prefixed UTF-8 slice and tells whether it decodes to s, without building a
     * String for ASCII (compared in place); anything else is decoded as {@link #string} would.
     */
    boolean sliceEquals(String s) {
        int n = sliceLength();
        int start = pos;
        pos += n;
        return utf8Equals(buf, start, n, s);
    }

    /**
     * Whether the n bytes of buf from start decode to s, as {@link #string} would decode them. An
     * ASCII s is compared in place, and so is the ASCII start of any s; only an s with other
     * characters, whose bytes match up to the first of them, decodes the slice to compare.
     * Lengths alone rule most names out: UTF-8 takes one to three bytes per UTF-16 character (a
     * surrogate pair takes four for two), and a malformed byte decodes to one character.
     */
    static boolean utf8Equals(byte[] buf, int start, int n, String s) {
        int chars = s.length();
        if (n < chars || n > 3L * chars) {
            return false;
        }
        for (int i = 0; i < chars; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return new String(buf, start, n, StandardCharsets.UTF_8).equals(s);
            }
            // A byte that differs from an ASCII character never decodes to it: a byte >= 0x80
            // starts a character >= 0x80 or a malformed one (U+FFFD).
            if (buf[start + i] != (byte) c) {
                return false;
            }
        }
        return n == chars; // an ASCII s has exactly one byte per character
    }

    byte[] bytes() {
        int n = sliceLength();
        byte[] b = new byte[n];
        System.arraycopy(buf, pos, b, 0, n);
        pos += n;
        return b;
    }

    String string() {
        int n = sliceLength();
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }
}
