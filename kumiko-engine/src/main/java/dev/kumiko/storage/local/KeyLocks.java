package dev.kumiko.storage.local;

import dev.kumiko.storage.StoreConflictException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Key locks for a store that lives in one process: all the concurrency control of the local
 * stores, in one place. Every engine over the store shares them, so two engines in one JVM are
 * serialized exactly like two threads of one engine.
 *
 * <p><b>Lock order</b> (nothing else on the data path blocks). Before all of them comes the engine's
 * catalog monitor (control-plane changes): it is taken before any transaction begins and never
 * while one is open, so it cannot wait on a stripe that waits on it.
 * <ol>
 *   <li><b>Claims.</b> A claiming transaction (TransactWriteItems) marks its keys with one
 *       non-blocking {@code putIfAbsent} each before it locks anything. A claim is never waited
 *       on: a transaction that finds a key claimed by another fails at once, so claims cannot
 *       deadlock.</li>
 *   <li><b>Stripe locks.</b> A key maps to one of {@link #STRIPES} locks. The keys named when a
 *       transaction begins are locked in ascending stripe order, waiting. A key first read later
 *       is locked with a bounded wait ({@link #LATE_LOCK_WAIT_MILLIS}); on timeout the
 *       transaction conflicts (retryable) instead of risking a wait cycle.</li>
 *   <li><b>The store's commit lock</b> (MemoryStore's batch lock, RocksDB's write queue), taken
 *       inside a commit only, never while waiting for 1 or 2.</li>
 * </ol>
 * {@link #barrier} locks every stripe in ascending order, the order of step 2, so it cannot
 * deadlock with writers. Bounded memory: a fixed array of stripes, at most the keys of the
 * transactions in flight as claims.
 */
public final class KeyLocks {
    static final int STRIPES = 4096;
    /** How long a key read after begin waits for its stripe before the transaction conflicts. */
    static final long LATE_LOCK_WAIT_MILLIS = 50;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final ConcurrentHashMap<ByteBuffer, Object> claims = new ConcurrentHashMap<>();

    public KeyLocks() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    static int stripeOf(byte[] key) {
        return (Arrays.hashCode(key) & 0x7FFFFFFF) % STRIPES;
    }

    /** Fails when a key is claimed by a transaction other than owner (null: a plain writer). */
    void checkUnclaimed(byte[][] keys, @Nullable Object owner) {
        if (claims.isEmpty()) {
            return;
        }
        for (int i = 0; i < keys.length; i++) {
            Object holder = claims.get(ByteBuffer.wrap(keys[i]));
            if (holder != null && holder != owner) {
                throw new StoreConflictException(new int[] {i}, true);
            }
        }
    }

    /**
     * Claims every key for owner, or none: on a key another claim holds, releases what it took and
     * fails with the positions of all such keys.
     */
    void claim(byte[][] keys, Object owner) {
        int[] conflicts = new int[keys.length];
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            Object holder = claims.putIfAbsent(ByteBuffer.wrap(keys[i]), owner);
            if (holder != null && holder != owner) {
                conflicts[n++] = i;
            }
        }
        if (n > 0) {
            release(keys, owner);
            throw new StoreConflictException(Arrays.copyOf(conflicts, n), true);
        }
    }

    void release(byte[][] keys, Object owner) {
        for (byte[] key : keys) {
            claims.remove(ByteBuffer.wrap(key), owner);
        }
    }

    /** Locks the stripes of keys in ascending order, waiting; returns them for {@link #unlock}. */
    int[] lockAll(byte[][] keys) {
        if (keys.length == 1) {
            int s = stripeOf(keys[0]);
            locks[s].lock();
            return new int[] {s};
        }
        int[] stripes = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            stripes[i] = stripeOf(keys[i]);
        }
        int[] unique = sortedDistinct(stripes);
        for (int s : unique) {
            locks[s].lock();
        }
        return unique;
    }

    /**
     * values in ascending order without repeats; sorts values in place. A stream's distinct()
     * boxed every stripe into a hash set, on every multi-key transaction.
     */
    static int[] sortedDistinct(int[] values) {
        Arrays.sort(values);
        int n = 0;
        for (int i = 0; i < values.length; i++) {
            if (n == 0 || values[i] != values[n - 1]) {
                values[n++] = values[i];
            }
        }
        return n == values.length ? values : Arrays.copyOf(values, n);
    }

    /**
     * Locks one more stripe for a transaction that already holds some: true if this call took it
     * (the caller unlocks it later), false if the thread held it already. Conflicts when the bounded
     * wait runs out.
     */
    boolean lockLate(int stripe) {
        ReentrantLock lock = locks[stripe];
        if (lock.isHeldByCurrentThread()) {
            return false;
        }
        try {
            if (lock.tryLock(LATE_LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new StoreConflictException(null, false);
    }

    void unlock(int stripe) {
        locks[stripe].unlock();
    }

    /** Returns once every transaction holding a stripe when it was called has released it. */
    @SuppressWarnings("LockNotBeforeTry") // nothing runs between lock and unlock that could throw
    public void barrier() {
        for (ReentrantLock lock : locks) {
            lock.lock();
            lock.unlock();
        }
    }
}
