package dev.kumiko.rocksdb;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB snapshot: a pinned sequence number, so it costs no copy and blocks no writer, but it
 * keeps compaction from dropping the versions it can see. Close it promptly.
 */
final class RocksSnapshot implements Snapshot, NativeGuard.Resource {
    private final RocksDB db;
    private final NativeGuard guard;
    private final org.rocksdb.Snapshot snapshot;
    private final ReadOptions readOptions;
    private boolean released; // Set by the owner, or by the store's close under its lock.

    /** Call between guard.enter() and guard.exit(); the caller registers the snapshot. */
    RocksSnapshot(RocksDB db, NativeGuard guard) {
        this.db = db;
        this.guard = guard;
        this.snapshot = db.getSnapshot();
        this.readOptions = new ReadOptions().setSnapshot(snapshot);
    }

    @Override
    public byte @Nullable [] get(byte[] key) {
        guard.enter();
        try {
            checkOpen();
            return db.get(readOptions, key);
        } catch (RocksDBException e) {
            throw new RocksStoreException("snapshot get", e);
        } finally {
            guard.exit();
        }
    }

    /** RocksDB's MultiGet at the snapshot's sequence number: one call for every key. */
    @Override
    public byte[][] getAll(byte[][] keys) {
        if (keys.length == 0) {
            return new byte[0][]; // RocksJava's multiGet asserts a non-empty key list
        }
        guard.enter();
        try {
            checkOpen();
            return db.multiGetAsList(readOptions, java.util.Arrays.asList(keys)).toArray(new byte[0][]);
        } catch (RocksDBException e) {
            throw new RocksStoreException("snapshot multiGet", e);
        } finally {
            guard.exit();
        }
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        guard.enter();
        try {
            checkOpen();
            if (RocksStore.isEmptyRange(startInclusive, endExclusive)) {
                return RocksCursor.EMPTY;
            }
            // The iterator reads the snapshot's sequence number once, when it is created, so
            // it stays valid even if this snapshot is closed before the cursor.
            RocksCursor cursor = new RocksCursor(db, guard, snapshot, startInclusive, endExclusive, reverse);
            guard.register(cursor);
            return cursor;
        } finally {
            guard.exit();
        }
    }

    private void checkOpen() {
        if (released) {
            throw new IllegalStateException("snapshot is closed");
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
        readOptions.close();
        db.releaseSnapshot(snapshot);
    }
}
