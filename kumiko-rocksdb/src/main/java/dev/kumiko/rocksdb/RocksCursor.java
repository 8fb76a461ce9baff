package dev.kumiko.rocksdb;

import dev.kumiko.storage.Cursor;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A cursor over a RocksIterator bounded by iterate_upper_bound (and, in reverse, iterate_lower_bound),
 * so RocksDB itself stops at the range's end (and skips tombstones past it) instead of this class
 * comparing every key. A forward cursor seeks to its start and only moves away from it, so it needs
 * no lower bound. The iterator is either the cursor's own, made and freed with it, or one lent by
 * the store's {@link IteratorCache} and given back at close. Used by one thread at a time, like
 * every Cursor.
 */
final class RocksCursor implements Cursor, NativeGuard.Resource {
    private final NativeGuard guard;
    // ReadOptions keeps raw pointers to the bound slices: they must outlive the iterator. All three
    // are null for a lent iterator; lowerBound is null for a forward cursor.
    private final @Nullable Slice lowerBound;
    private final @Nullable Slice upperBound;
    private final @Nullable ReadOptions readOptions;
    private final RocksIterator iterator;
    // The cache and the iterator it lent; null for an iterator of the cursor's own.
    private final @Nullable IteratorCache lender;
    private final IteratorCache.@Nullable Kept lent;
    private final boolean reverse;
    private boolean started;
    private boolean exhausted;
    private boolean released; // Set by the owner, or by the store's close under its lock.
    private byte @Nullable [] key;
    private byte @Nullable [] value;

    /** Call between guard.enter() and guard.exit(); the caller registers the cursor. */
    RocksCursor(RocksDB db, NativeGuard guard, @Nullable Snapshot snapshot, byte[] start, byte[] end, boolean reverse) {
        this.guard = guard;
        this.reverse = reverse;
        this.lender = null;
        this.lent = null;
        Slice lower = reverse ? new Slice(start) : null;
        Slice upper = new Slice(end);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        if (lower != null) {
            options.setIterateLowerBound(lower);
        }
        if (snapshot != null) {
            options.setSnapshot(snapshot);
        }
        this.lowerBound = lower;
        this.upperBound = upper;
        this.readOptions = options;
        this.iterator = db.newIterator(options);
        // Positioned now, so the cursor keeps no reference to the caller's start array; the
        // iterator reads the state it was created at, whenever it is moved.
        if (reverse) {
            iterator.seekToLast();
        } else {
            iterator.seek(start);
        }
    }

    /**
     * A cursor over an iterator lent by lender, already bounded and positioned at the range's first
     * key (its last, in reverse). Call between guard.enter() and guard.exit(); the caller registers
     * the cursor.
     */
    RocksCursor(NativeGuard guard, IteratorCache lender, IteratorCache.Kept lent, boolean reverse) {
        this.guard = guard;
        this.reverse = reverse;
        this.lender = lender;
        this.lent = lent;
        this.iterator = lent.iterator();
        this.lowerBound = null;
        this.upperBound = null;
        this.readOptions = null;
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

    /**
     * The first step stays where the constructor's seek landed: seekToLast honours
     * iterate_upper_bound (the last key before the end), seek the start (the first key at or after it).
     */
    private void step() {
        if (!started) {
            started = true;
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
        if (lender != null && lent != null) {
            lender.giveBack(lent);
            return;
        }
        iterator.close();
        // An iterator of the cursor's own: its options and bounds were made with it.
        if (readOptions != null) {
            readOptions.close();
        }
        if (lowerBound != null) {
            lowerBound.close();
        }
        if (upperBound != null) {
            upperBound.close();
        }
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
