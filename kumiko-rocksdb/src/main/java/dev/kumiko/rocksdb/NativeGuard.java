package dev.kumiko.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps native handles from being used after they are freed. A RocksDB call on a closed handle
 * crashes the JVM rather than throwing, so every native call runs between {@link #enter()} and
 * {@link #exit()} (a shared lock), and {@link #close} takes the lock exclusively: it waits for
 * calls in flight, then frees the cursors and snapshots callers left open, so the database can
 * be closed with nothing still pointing into it.
 */
final class NativeGuard {
    /** Something holding native handles that the store must free before the database. */
    interface Resource {
        /** Frees native handles; called once, with no native call of this resource in flight. */
        void release();
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Set<Resource> open = ConcurrentHashMap.newKeySet();
    // Written under the lock; volatile for checkOpen, which answers without it.
    private volatile boolean closed;

    void enter() {
        lock.readLock().lock();
        if (closed) {
            lock.readLock().unlock();
            throw new IllegalStateException("store is closed");
        }
    }

    /**
     * Fails once the store is closed, for an answer that needs no native call (a point-cache hit),
     * so that a closed store refuses every read alike.
     */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
    }

    void exit() {
        lock.readLock().unlock();
    }

    /** Called inside enter/exit, so a resource is never registered after close released all. */
    void register(Resource resource) {
        assert lock.getReadHoldCount() > 0;
        boolean added = open.add(resource);
        assert added;
    }

    /**
     * Releases one resource at its owner's request, unless the store's close already did. The
     * shared lock keeps the database open until the release is done.
     */
    void release(Resource resource) {
        lock.readLock().lock();
        try {
            if (!closed && open.remove(resource)) {
                resource.release();
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Releases open resources, then runs closeNative; later calls are no-ops. */
    void close(Runnable closeNative) {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            List<Resource> leftOpen = new ArrayList<>(open);
            open.clear();
            for (Resource resource : leftOpen) {
                resource.release();
            }
            closeNative.run();
        } finally {
            lock.writeLock().unlock();
        }
    }
}
