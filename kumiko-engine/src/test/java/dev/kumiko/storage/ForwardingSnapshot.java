package dev.kumiko.storage;

import java.util.Objects;

/**
 * A snapshot that passes every call to another, for a {@link ForwardingStore} that must see into its
 * snapshots: a subclass overrides only what it changes.
 */
public class ForwardingSnapshot implements Snapshot {
    private final Snapshot inner;

    public ForwardingSnapshot(Snapshot inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public byte[] get(byte[] key) {
        return inner.get(key);
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        return inner.getAll(keys);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        return inner.scan(startInclusive, endExclusive, reverse);
    }

    @Override
    public void close() {
        inner.close();
    }
}
