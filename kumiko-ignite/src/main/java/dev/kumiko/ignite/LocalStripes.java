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
 *
 * <p>Every wait here is bounded and a stripe not taken in time is simply skipped: a holder may be
 * waiting in Ignite for a transaction of another server, and a wait nobody can see end (an in-process
 * lock behind an Ignite lock) must not be able to stall a request thread.
 */
final class LocalStripes {
    static final int STRIPES = 1024;
    static final long TRY_LOCK_MILLIS = 50;
    /**
     * How long a transaction or a plain batch waits for each stripe of its keys: long enough to
     * queue behind this process's other writers of a hot key, bounded because the holder may be
     * waiting in Ignite, and the caller may hold stripes of its own.
     */
    static final long QUEUE_MILLIS = 2_000;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    LocalStripes() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
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
     * Locks the stripes of keys in ascending order, waiting at most waitMillis for each, so it
     * never deadlocks, also for a caller that holds stripes already; returns the stripes it took
     * (those it could not take are left to Ignite's locks).
     */
    int[] tryLockAll(byte[][] keys, long waitMillis) {
        int[] wanted = Arrays.stream(keys)
                .mapToInt(k -> Math.floorMod(Arrays.hashCode(k), STRIPES))
                .sorted()
                .distinct()
                .toArray();
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
