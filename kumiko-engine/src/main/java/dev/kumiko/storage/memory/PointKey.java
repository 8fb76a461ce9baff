package dev.kumiko.storage.memory;

import java.util.Arrays;

/**
 * A store key as the probe of a hash-map lookup: equal to the {@link Cell} of the same key bytes,
 * which is the map's key and value at once; the hash is computed once. The array is not copied.
 */
final class PointKey {
    private final byte[] bytes;
    private final int hash;

    PointKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof Cell cell) {
            return hash == cell.hashCode() && Arrays.equals(bytes, cell.key());
        }
        return o instanceof PointKey other && hash == other.hash && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
