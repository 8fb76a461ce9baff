package dev.kumiko.storage;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The pause before a store transaction that conflicted runs again: jittered, and doubling with
 * each attempt from {@link #MICROS_FIRST} up to {@link #MICROS_MAX}. Over a store that validates
 * optimistically (shared by several engines), writers that raced would collide again at once if
 * they retried without a pause; the jitter spreads them apart. The local stores lock keys, so
 * their writers never race and never pause here.
 */
public final class ConflictBackoff {
    static final long MICROS_FIRST = 500;
    static final long MICROS_MAX = 256_000;

    private ConflictBackoff() {}

    /** Parks the calling thread after attempt (0 for the first) conflicted; returns early on interrupt. */
    public static void pause(int attempt) {
        long capMicros = capMicros(attempt);
        LockSupport.parkNanos(1000 * ThreadLocalRandom.current().nextLong(capMicros / 2, capMicros + 1));
    }

    /** The longest pause after attempt, in microseconds. */
    static long capMicros(int attempt) {
        assert attempt >= 0 : attempt;
        int doublings = Math.min(attempt, Long.numberOfLeadingZeros(MICROS_FIRST) - 1);
        return Math.min(MICROS_MAX, MICROS_FIRST << doublings);
    }
}
