package dev.kumiko.rocksdb;

import dev.kumiko.storage.Cursor;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A cursor over a RocksIterator bounded by iterate_lower_bound and iterate_upper_bound, so RocksDB
 * itself stops at the range's ends (and skips tombstones past them) instead of this class
 * comparing every key. Used by one thread at a time, like every Cursor.
 */
final class RocksCursor implements Cursor, NativeGuard.Resource {
    private final NativeGuard guard;
    // ReadOptions keeps raw pointers to the bound slices: they must outlive the iterator.
    private final Slice lowerBound;
    private final Slice upperBound;
    private final ReadOptions readOptions;
    private final RocksIterator iterator;
    private final boolean reverse;
    private boolean started;
    private boolean exhausted;
    private boolean released; // Set by the owner, or by the store's close under its lock.
    private byte[] key;
    private byte[] value;

    /** Call between guard.enter() and guard.exit(); the caller registers the cursor. */
    RocksCursor(RocksDB db, NativeGuard guard, Snapshot snapshot, byte[] start, byte[] end, boolean reverse) {
        this.guard = guard;
        this.reverse = reverse;
        this.lowerBound = new Slice(start);
        this.upperBound = new Slice(end);
        this.readOptions = new ReadOptions()
                .setIterateLowerBound(lowerBound)
                .setIterateUpperBound(upperBound);
        if (snapshot != null) {
            readOptions.setSnapshot(snapshot);
        }
        this.iterator = db.newIterator(readOptions);
    }

    @Override
    public boolean next() {
        guard.enter();
        try {
            if (released) {
                throw new IllegalStateException("cursor is closed");
            }
            key = null;
            value = null;
            if (exhausted) {
                return false;
            }
            step();
            if (iterator.isValid()) {
                return true;
            }
            exhausted = true;
            checkStatus();
            return false;
        } finally {
            guard.exit();
        }
    }

    /** seekToLast honours iterate_upper_bound: it lands on the last key before the end. */
    private void step() {
        if (!started) {
            started = true;
            if (reverse) {
                iterator.seekToLast();
            } else {
                iterator.seekToFirst();
            }
        } else if (reverse) {
            iterator.prev();
        } else {
            iterator.next();
        }
    }

    private void checkStatus() {
        try {
            iterator.status();
        } catch (RocksDBException e) {
            throw new RocksStoreException("iterate", e);
        }
    }

    // Key and value are copied out lazily: a count or keys-only scan never copies values.
    @Override
    public byte[] key() {
        if (key == null) {
            key = fetch(true);
        }
        return key;
    }

    @Override
    public byte[] value() {
        if (value == null) {
            value = fetch(false);
        }
        return value;
    }

    private byte[] fetch(boolean wantKey) {
        guard.enter();
        try {
            if (released || !started || exhausted) {
                throw new IllegalStateException("cursor is not on an entry");
            }
            return wantKey ? iterator.key() : iterator.value();
        } finally {
            guard.exit();
        }
    }

    @Override
    public void close() {
        guard.release(this);
    }

    @Override
    public void release() {
        assert !released;
        released = true;
        iterator.close();
        readOptions.close();
        lowerBound.close();
        upperBound.close();
    }

    /** What a scan of an empty range returns: no native handles at all. */
    static final Cursor EMPTY = new Cursor() {
        @Override
        public boolean next() {
            return false;
        }

        @Override
        public byte[] key() {
            throw new IllegalStateException("cursor is not on an entry");
        }

        @Override
        public byte[] value() {
            throw new IllegalStateException("cursor is not on an entry");
        }

        @Override
        public void close() {}
    };
}
