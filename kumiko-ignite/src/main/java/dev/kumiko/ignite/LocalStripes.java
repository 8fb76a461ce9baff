package dev.kumiko.ignite;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks on the keys named at begin, inside this process only. Correctness does not need
 * them (Ignite's row locks isolate transactions from every process), but Ignite settles two
 * transactions that read one key and then both write it by aborting one, and a hot key written by
 * many threads of one server would then spend most attempts aborting. Queueing this process's
 * writers of a key here first leaves Ignite only the conflicts between servers.
 */
final class LocalStripes {
    static final int STRIPES = 1024;
    static final long TRY_LOCK_MILLIS = 50;
    /**
     * How long a plain batch or a counter fold waits for each stripe of its keys: long enough to
     * queue behind this process's other writers of a hot key (a counter), bounded because the
     * caller may hold stripes of its own transaction.
     */
    static final long QUEUE_MILLIS = 2_000;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    LocalStripes() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** Locks the stripes of keys in ascending order (no deadlock between two callers); returns them. */
    int[] lockAll(byte[][] keys) {
        int[] stripes = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            stripes[i] = Math.floorMod(Arrays.hashCode(keys[i]), STRIPES);
        }
        int[] unique = Arrays.stream(stripes).sorted().distinct().toArray();
        for (int stripe : unique) {
            locks[stripe].lock();
        }
        return unique;
    }

    static int stripeOf(byte[] key) {
        return Math.floorMod(Arrays.hashCode(key), STRIPES);
    }

    /**
     * A key first read inside a transaction (a stream's sequence counter, say): waits at most
     * {@value #TRY_LOCK_MILLIS} ms for its stripe, since the caller holds others already; false
     * when it did not get it (Ignite's locks still isolate the transaction).
     */
    boolean tryLock(int stripe) {
        try {
            return locks[stripe].tryLock(TRY_LOCK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void unlock(int stripe) {
        locks[stripe].unlock();
    }

    /**
     * Like {@link #lockAll}, for a caller that may hold stripes already (a commit folding its
     * counters): waits at most waitMillis per stripe, so it never deadlocks; returns the stripes
     * it took (those it could not take are left to Ignite's locks).
     */
    int[] tryLockAll(byte[][] keys, long waitMillis) {
        int[] wanted = Arrays.stream(keys).mapToInt(k -> Math.floorMod(Arrays.hashCode(k), STRIPES))
                .sorted().distinct().toArray();
        int[] taken = new int[wanted.length];
        int count = 0;
        for (int stripe : wanted) {
            try {
                if (locks[stripe].tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
                    taken[count++] = stripe;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Arrays.copyOf(taken, count);
    }

    void unlockAll(int[] stripes) {
        for (int i = stripes.length - 1; i >= 0; i--) {
            locks[stripes[i]].unlock();
        }
    }
}
