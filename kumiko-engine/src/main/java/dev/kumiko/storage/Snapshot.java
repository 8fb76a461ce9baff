package dev.kumiko.storage;

/** A consistent read-only view of a {@link Store} at one point in time. */
public interface Snapshot extends AutoCloseable {
    byte[] get(byte[] key);

    Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse);

    @Override
    void close();
}
