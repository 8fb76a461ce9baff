package dev.kumiko.storage.memory;

import java.util.Arrays;

/** A store key as a hash-map key: content equality, hash computed once. The array is not copied. */
final class PointKey {
    private final byte[] bytes;
    private final int hash;

    PointKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PointKey other && hash == other.hash && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
