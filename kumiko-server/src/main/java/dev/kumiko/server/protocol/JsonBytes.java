package dev.kumiko.server.protocol;

import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * A growable byte buffer for JSON text that can be emptied and filled again, so that a thread
 * writes every response, and every stored item of one, through one buffer instead of one per use.
 * It is also the stream a response's Jackson generator writes to ({@link JsonOut}), so that stored
 * items can be written into the response body directly.
 */
final class JsonBytes extends OutputStream {
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

    /**
     * The backing array with room for {@code extra} more bytes after {@link #size()}, for a writer
     * that fills it itself and then calls {@link #size(int)}.
     */
    byte[] reserve(int extra) {
        ensure(extra);
        return buf;
    }

    /** Sets the size after a write into the array {@link #reserve} gave, within the room it made. */
    void size(int newSize) {
        assert newSize >= size && newSize <= buf.length : newSize;
        size = newSize;
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

    @Override
    public void write(int b) {
        put(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        put(bytes, offset, length);
    }
}
