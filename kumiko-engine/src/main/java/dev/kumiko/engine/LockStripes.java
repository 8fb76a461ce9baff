package dev.kumiko.engine;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serializes read-modify-write cycles per item: an item's storage key picks one of a fixed number
 * of locks. Several keys are locked in ascending stripe order, so two multi-item writers never
 * deadlock. Bounded memory whatever the data size.
 */
public final class LockStripes {
    private static final int STRIPES = 4096;
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    public LockStripes() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    public int stripeOf(byte[] key) {
        return (Arrays.hashCode(key) & 0x7FFFFFFF) % STRIPES;
    }

    public ReentrantLock lockFor(byte[] key) {
        ReentrantLock lock = locks[stripeOf(key)];
        lock.lock();
        return lock;
    }

    /** Locks the stripes of all keys in ascending order; returns them for {@link #unlockAll}. */
    public int[] lockAll(byte[][] keys) {
        int[] stripes = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            stripes[i] = stripeOf(keys[i]);
        }
        int[] unique = Arrays.stream(stripes).distinct().sorted().toArray();
        for (int s : unique) {
            locks[s].lock();
        }
        return unique;
    }

    /**
     * Waits until every writer that holds a stripe now has finished: locks and releases each stripe
     * in ascending order (the order multi-item writers use, so this cannot deadlock with them).
     */
    public void barrier() {
        for (ReentrantLock lock : locks) {
            lock.lock();
            lock.unlock();
        }
    }

    public void unlockAll(int[] stripes) {
        for (int i = stripes.length - 1; i >= 0; i--) {
            locks[stripes[i]].unlock();
        }
    }
}
