package dev.kumiko.engine.read;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;

/** A store that counts the entries its cursors return, to assert how much a read touched. */
final class CountingStore implements Store {
    private final Store inner;
    long entriesRead;

    CountingStore(Store inner) {
        this.inner = inner;
    }

    @Override
    public byte[] get(byte[] key) {
        return inner.get(key);
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        Cursor c = inner.scan(startInclusive, endExclusive, reverse);
        return new Cursor() {
            @Override
            public boolean next() {
                boolean more = c.next();
                if (more) {
                    entriesRead++;
                }
                return more;
            }

            @Override
            public byte[] key() {
                return c.key();
            }

            @Override
            public byte[] value() {
                return c.value();
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    @Override
    public void apply(WriteBatch batch) {
        inner.apply(batch);
    }

    @Override
    public Snapshot snapshot() {
        return inner.snapshot();
    }

    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        inner.deleteRange(startInclusive, endExclusive);
    }

    @Override
    public void sync() {
        inner.sync();
    }

    @Override
    public void close() {
        inner.close();
    }
}
