package dev.kumiko.storage;

/**
 * A forward-only iterator over key-value pairs. {@link #key()} and {@link #value()} are valid
 * after {@link #next()} returned true and until the next call; callers copy what they keep.
 */
public interface Cursor extends AutoCloseable {
    boolean next();

    byte[] key();

    byte[] value();

    @Override
    void close();
}
