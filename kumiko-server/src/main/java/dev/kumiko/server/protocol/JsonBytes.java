package dev.kumiko.server.protocol;

import java.util.Arrays;

/**
 * A growable byte buffer for JSON text that can be emptied and filled again, so that a thread
 * writes every stored item of a response through one buffer instead of one per item.
 */
final class JsonBytes {
    private byte[] buf;
    private int size;

    JsonBytes(int initialCapacityBytes) {
        buf = new byte[Math.max(16, initialCapacityBytes)];
    }

    /** Empties the buffer and makes room for {@code capacityBytes}, keeping its array when it is big enough. */
    JsonBytes reset(int capacityBytes) {
        size = 0;
        if (buf.length < capacityBytes) {
            buf = new byte[capacityBytes];
        }
        return this;
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }

    JsonBytes put(int b) {
        ensure(1);
        buf[size++] = (byte) b;
        return this;
    }

    JsonBytes put(byte[] bytes) {
        return put(bytes, 0, bytes.length);
    }

    JsonBytes put(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, size, length);
        size += length;
        return this;
    }

    int size() {
        return size;
    }

    /** The backing array, valid up to {@link #size()} until the next put or reset. */
    byte[] buffer() {
        return buf;
    }

    byte[] toArray() {
        return Arrays.copyOf(buf, size);
    }
}
