package dev.kumiko.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps native handles from being used after they are freed. A RocksDB call on a closed handle
 * crashes the JVM rather than throwing, so every native call runs between {@link #enter()} and
 * {@link #exit()}, and {@link #close} waits for the calls in flight, then frees the cursors and
 * snapshots callers left open, so the database can be closed with nothing still pointing into it.
 *
 * <p>A call in flight is counted in its thread's stripe, a cache line of its own, instead of in a
 * shared read lock: the lock's state and its per-thread hold count cost each native call more than
 * a counter the other event loop never touches (an iterator takes three calls per entry: step, key
 * and value). Why close never frees under a call: a caller counts itself, then reads {@code
 * closed}; close writes {@code closed}, then reads the counts. All four are volatile accesses, so
 * either close sees the count (and waits for the exit) or the caller sees {@code closed} (and
 * backs out without a native call). A thread's enter and exit use the same stripe, so a stripe's
 * count is never below its calls in flight.
 */
final class NativeGuard {
    /** Something holding native handles that the store must free before the database. */
    interface Resource {
        /** Frees native handles; called once, with no native call of this resource in flight. */
        void release();
    }

    /** Stripes of in-flight counts; a power of two, so that a thread's stripe is a mask away. */
    private static final int STRIPES = 16;
    /** Longs per stripe: 128 bytes, so that two stripes never share a cache line (or its pair). */
    private static final int STRIDE_LONGS = 16;
    /** How long close sleeps between looks at the counts once spinning has not seen them drain. */
    private static final long AWAIT_PARK_NANOS = 50_000;

    private static final int AWAIT_SPINS_MAX = 1_000;

    private final AtomicLongArray inFlight = new AtomicLongArray(STRIPES * STRIDE_LONGS);
    private final Set<Resource> open = ConcurrentHashMap.newKeySet();
    // Written once by close, under this object's monitor; read by every call.
    private volatile boolean closed;

    void enter() {
        int slot = slot();
        inFlight.getAndIncrement(slot);
        if (closed) {
            inFlight.getAndDecrement(slot);
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
        long left = inFlight.getAndDecrement(slot());
        assert left > 0 : "exit without enter";
    }

    /** This thread's stripe: the same on every call of the thread, spread over threads by its id. */
    private static int slot() {
        int h = (int) ((Thread.currentThread().getId() * 0x9E3779B97F4A7C15L) >>> 32);
        return (h & (STRIPES - 1)) * STRIDE_LONGS;
    }

    /** Called inside enter/exit, so a resource is never registered after close released all. */
    void register(Resource resource) {
        assert inFlight.get(slot()) > 0 : "register outside enter/exit";
        boolean added = open.add(resource);
        assert added;
    }

    /**
     * Releases one resource at its owner's request, unless the store's close already did. Counted
     * as a call in flight, so close waits for the release before it closes the database.
     */
    void release(Resource resource) {
        int slot = slot();
        inFlight.getAndIncrement(slot);
        try {
            if (!closed && open.remove(resource)) {
                resource.release();
            }
        } finally {
            inFlight.getAndDecrement(slot);
        }
    }

    /** Releases open resources, then runs closeNative; later calls are no-ops. */
    synchronized void close(Runnable closeNative) {
        if (closed) {
            return;
        }
        closed = true;
        awaitNoneInFlight();
        List<Resource> leftOpen = new ArrayList<>(open);
        open.clear();
        for (Resource resource : leftOpen) {
            resource.release();
        }
        closeNative.run();
    }

    /**
     * Returns once every call that entered before close is out. Calls entering after it back out
     * at once, so the wait is for native calls already running: a get, a write (an fsync at most).
     */
    private void awaitNoneInFlight() {
        int spins = 0;
        for (int slot = 0; slot < STRIPES * STRIDE_LONGS; ) {
            if (inFlight.get(slot) == 0) {
                slot += STRIDE_LONGS;
            } else if (++spins < AWAIT_SPINS_MAX) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(AWAIT_PARK_NANOS);
            }
        }
    }
}
