package dev.kumiko.storage;

import org.jspecify.annotations.Nullable;

/** A consistent read-only view of a {@link Store} at one point in time. */
public interface Snapshot extends AutoCloseable {
    byte @Nullable [] get(byte[] key);

    /** The values of keys at the snapshot's time, in their order (null where missing), in one call. */
    default byte[][] getAll(byte[][] keys) {
        byte[][] values = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            values[i] = get(keys[i]);
        }
        return values;
    }

    Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse);

    @Override
    void close();
}
