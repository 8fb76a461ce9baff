package dev.kumiko.storage;

import java.util.Objects;

/**
 * A cursor that passes every call to another, for a {@link ForwardingStore} that must see into its
 * scans: a subclass overrides only what it changes.
 */
public class ForwardingCursor implements Cursor {
    private final Cursor inner;

    public ForwardingCursor(Cursor inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public boolean next() {
        return inner.next();
    }

    @Override
    public byte[] key() {
        return inner.key();
    }

    @Override
    public byte[] value() {
        return inner.value();
    }

    @Override
    public void close() {
        inner.close();
    }
}
