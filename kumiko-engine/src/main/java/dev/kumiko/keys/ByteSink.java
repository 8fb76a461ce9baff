package dev.kumiko.keys;

import java.util.Arrays;

/** A growable byte buffer for building keys and encoded items without intermediate copies. */
public final class ByteSink {
    private byte[] buf;
    private int size;

    public ByteSink(int initialCapacityBytes) {
        buf = new byte[Math.max(16, initialCapacityBytes)];
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }

    public ByteSink put(int b) {
        ensure(1);
        buf[size++] = (byte) b;
        return this;
    }

    public ByteSink put(byte[] bytes) {
        return put(bytes, 0, bytes.length);
    }

    public ByteSink put(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, size, length);
        size += length;
        return this;
    }

    public ByteSink putIntBigEndian(int v) {
        ensure(4);
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
        return this;
    }

    /** Overwrites 4 bytes already written at position (a field whose value is known only later). */
    public ByteSink setIntBigEndian(int position, int v) {
        if (position < 0 || position > size - 4) {
            throw new IndexOutOfBoundsException("position " + position + " of " + size + " bytes");
        }
        buf[position] = (byte) (v >>> 24);
        buf[position + 1] = (byte) (v >>> 16);
        buf[position + 2] = (byte) (v >>> 8);
        buf[position + 3] = (byte) v;
        return this;
    }

    public ByteSink putLongBigEndian(long v) {
        putIntBigEndian((int) (v >>> 32));
        return putIntBigEndian((int) v);
    }

    /** Unsigned LEB128 varint, for lengths and counts. */
    public ByteSink putVarint(int v) {
        assert v >= 0;
        while ((v & ~0x7F) != 0) {
            put((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        return put(v);
    }

    public int size() {
        return size;
    }

    /** The backing array, valid up to {@link #size()} until the next put; lets a caller skip a copy. */
    public byte[] buffer() {
        return buf;
    }

    /**
     * Empties the sink for reuse; a buffer grown past keepMaxBytes (by one large item) is dropped
     * for one of initialCapacityBytes, so a reused sink does not hold on to it.
     */
    public ByteSink reset(int initialCapacityBytes, int keepMaxBytes) {
        size = 0;
        if (buf.length > keepMaxBytes) {
            buf = new byte[Math.max(16, initialCapacityBytes)];
        }
        return this;
    }

    public byte[] toArray() {
        return Arrays.copyOf(buf, size);
    }
}
