package dev.kumiko.storage;

import org.jspecify.annotations.Nullable;

/**
 * The value format of a counter ({@link WriteBatch#add}): a signed 64-bit integer in 8 bytes,
 * little-endian, two's complement. That is RocksDB's uint64add merge format, and unsigned
 * wrap-around addition of two's complement values is signed addition, so negative deltas work.
 */
public final class Counters {
    public static final int BYTES = Long.BYTES;

    private Counters() {}

    public static byte[] encode(long value) {
        byte[] out = new byte[BYTES];
        for (int i = 0; i < BYTES; i++) {
            out[i] = (byte) (value >>> (8 * i));
        }
        return out;
    }

    /** The counter's value; an absent counter (null) is 0. */
    public static long decode(byte @Nullable [] bytes) {
        if (bytes == null) {
            return 0;
        }
        if (bytes.length != BYTES) {
            throw new IllegalStateException("a counter holds " + BYTES + " bytes, found " + bytes.length);
        }
        long value = 0;
        for (int i = BYTES - 1; i >= 0; i--) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }
}
