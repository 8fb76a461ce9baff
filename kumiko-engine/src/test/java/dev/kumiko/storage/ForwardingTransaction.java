package dev.kumiko.storage;

import java.util.Objects;

/**
 * A transaction that passes every call to another, for a {@link ForwardingStore} that must see into
 * its transactions: a subclass overrides only what it changes. The inner transaction keeps its
 * store's isolation (its locks or its read set), so wrapping one changes nothing a test did not ask.
 */
public class ForwardingTransaction implements Transaction {
    private final Transaction inner;

    public ForwardingTransaction(Transaction inner) {
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
    public void commit(WriteBatch batch) {
        inner.commit(batch);
    }

    @Override
    public void close() {
        inner.close();
    }
}
