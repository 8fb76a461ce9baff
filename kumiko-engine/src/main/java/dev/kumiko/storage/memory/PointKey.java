package dev.kumiko.storage.memory;

import java.util.Arrays;

/**
 * A store key as the probe of a {@link PointTable} lookup, and the key of a new {@link Cell}: the
 * bytes (not copied) and their hash, computed once.
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

    /** Arrays.hashCode of the bytes. */
    int hash() {
        return hash;
    }
}
