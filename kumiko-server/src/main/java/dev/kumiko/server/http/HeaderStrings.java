package dev.kumiko.server.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The header names and values of one event loop's recent requests, so that a request line's
 * bytes that equal one of them become that same {@code String} instead of a new one. A client
 * sends the same Host, Content-Type, User-Agent and X-Amz-Target with every request of a
 * connection; only a few values (the signature, the date, an invocation id, the length) change.
 * The strings of a GetItem's header part were about a quarter of the bytes the server allocated
 * to answer it.
 *
 * <p>A table of {@link #SLOTS} strings in sets of two, a set chosen by a hash of the bytes' length
 * and first and last words: a hit in either slot is confirmed byte by byte; a miss makes the
 * string as before and puts it first in its set, moving the first to second (so that two strings
 * a request repeats share a set without pushing each other out). Strings longer than
 * {@link #LENGTH_MAX} bytes are never kept, so the table holds at most {@code SLOTS × LENGTH_MAX}
 * bytes of text. Not thread-safe: one per event loop thread.
 */
final class HeaderStrings {
    static final int SLOTS = 256;
    /**
     * Longer values are rare and seldom repeat (a signed Authorization header, about 200 bytes,
     * changes with every request and is kept only until its slot is needed); the bound keeps the
     * table small.
     */
    static final int LENGTH_MAX = 256;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String[] slots = new String[SLOTS];

    /** bytes[from, to) as an ISO-8859-1 string, the one kept from an earlier request if equal. */
    String of(byte[] bytes, int from, int to) {
        assert 0 <= from && from <= to && to <= bytes.length;
        int length = to - from;
        if (length > LENGTH_MAX) {
            return new String(bytes, from, length, StandardCharsets.ISO_8859_1);
        }
        int first = set(bytes, from, to) * 2;
        String kept = slots[first];
        if (kept != null && equal(kept, bytes, from, to)) {
            return kept;
        }
        kept = slots[first + 1];
        if (kept != null && equal(kept, bytes, from, to)) {
            return kept;
        }
        String made = new String(bytes, from, length, StandardCharsets.ISO_8859_1);
        slots[first + 1] = slots[first];
        slots[first] = made;
        return made;
    }

    /**
     * A set of two slots from the length and the first and last eight bytes (or each byte, if
     * fewer), mixed as MurmurHash3's finalizer mixes, so that names and values that differ in a
     * few bits land apart.
     */
    static int set(byte[] bytes, int from, int to) {
        int length = to - from;
        long h = length;
        if (length >= Long.BYTES) {
            h = h * 31 + (long) LONGS.get(bytes, from);
            h = h * 31 + (long) LONGS.get(bytes, to - Long.BYTES);
        } else {
            for (int i = from; i < to; i++) {
                h = h * 31 + bytes[i];
            }
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h & (SLOTS / 2 - 1);
    }

    /** Whether s is exactly bytes[from, to) read as ISO-8859-1. */
    private static boolean equal(String s, byte[] bytes, int from, int to) {
        if (s.length() != to - from) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (s.charAt(i - from) != (char) (bytes[i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }
}
