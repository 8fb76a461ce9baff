package dev.kumiko.storage;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a read-modify-write body, which may run more than once, until it commits, and decides when
 * to stop. Every store transaction that the engine retries goes through here, so one place owns
 * how often a conflict is retried ({@link #ATTEMPTS_MAX}), the pause between attempts (jittered,
 * doubling from {@link #BACKOFF_MICROS_FIRST} up to {@link #BACKOFF_MICROS_MAX}), how long retries
 * may go on ({@link #DEADLINE_MILLIS}), and that the caller's give-up answer is what ends it.
 *
 * <p>A body is one whole cycle: it begins its store transaction, reads, decides and commits, and
 * throws {@link StoreConflictException} when nothing was written and the cycle may run again. Any
 * other exception ends the run at once (a failed condition, a validation error). What the caller
 * answers once retries end is its own {@link GiveUp}: DynamoDB's TransactionConflictException for
 * an item write, an internal error for the catalog, "try again later" for background work.
 *
 * <p>Why retries at all: over a store that validates optimistically (shared by several engines),
 * two writers of one key race and one of them is refused; run again, it reads the other's write
 * and decides anew, as if it had come second. Without a pause, writers that raced would collide
 * again at once; the jitter spreads them apart. The local stores lock keys, so their plain writers
 * never race, and there the runner costs one try block on the way to the body.
 *
 * <p>Conflicts with a multi-item transaction's claim ({@link StoreConflictException#claimed}) are
 * given up at once or retried like races, as the caller says ({@link Claimed}): DynamoDB refuses a
 * single-item write to an item a transaction holds, but a BatchWriteItem waits it out.
 */
public final class ReadModifyWrite {
    /**
     * Attempts of one body, the first included. The pauses before the last add up to about 1.3 s
     * (0.9-1.8 s with their jitter). Most races end within the first few attempts, but a shared
     * store also aborts transactions while a partition they touch fails over: with 8 attempts and
     * pauses of at most 32 ms (about 0.1 s in all), PutItems of new keys were answered
     * TransactionConflictException 20 s after an Ignite node was killed
     * (scripts/ignite-cluster.sh); in that script's runs since, writes 2-10 s after the kill took up
     * to 15 attempts and then succeeded.
     */
    public static final int ATTEMPTS_MAX = 16;
    /** The longest pause after the first attempt; each later one may be up to twice as long. */
    public static final long BACKOFF_MICROS_FIRST = 500;
    /** No pause is longer: past it, waiting more between attempts only delays the answer. */
    public static final long BACKOFF_MICROS_MAX = 256_000;
    /**
     * How long retries go on, counted from the first conflict. The pauses alone never reach it; it
     * bounds the client's wait when the attempts themselves are slow: a call to a cluster may take
     * the Ignite client's 5 s operation timeout, so 16 such attempts would hold a request for over
     * a minute, past the SDKs' socket timeouts, where the client would have given up and retried
     * anyway. 20 s outlasts a partition's move to a new primary after a node dies (about 10 s,
     * docs/distributed.md).
     */
    public static final long DEADLINE_MILLIS = 20_000;

    /**
     * The runner of every engine: parks the thread, reads System.nanoTime. Classes, not method
     * references, as in Clock.SYSTEM: no call site is linked when the runner is first used.
     */
    public static final ReadModifyWrite SYSTEM = new ReadModifyWrite(new Parking(), new SystemNanos());

    /** One run of a read-modify-write cycle. Throws StoreConflictException to be run again. */
    @FunctionalInterface
    public interface Body<T> {
        T attempt();
    }

    /**
     * What the caller answers when the runner stops retrying, given the last conflict: returns a
     * value for the run to return, or throws what the client sees.
     */
    @FunctionalInterface
    public interface GiveUp<T> {
        T answer(StoreConflictException last);
    }

    /** What a conflict with a multi-item transaction's claim does. */
    public enum Claimed {
        /** Stop at once: DynamoDB refuses the write rather than queue it behind the transaction. */
        GIVE_UP,
        /** Pause and run again, as for a race: the transaction ends soon, and the write follows it. */
        RETRY
    }

    /** Waits between attempts; the runner's only side effect besides the body. */
    public interface Pauser {
        /** Waits up to capMicros (jittered, at least half of it); may return early on interrupt. */
        void pause(long capMicros);
    }

    /** A monotonic clock in nanoseconds, for the deadline. */
    public interface Nanos {
        long now();
    }

    private final Pauser pauser;
    private final Nanos nanos;

    /** Tests give their own pauser and clock, so no assertion depends on real time. */
    public ReadModifyWrite(Pauser pauser, Nanos nanos) {
        assert pauser != null && nanos != null;
        this.pauser = pauser;
        this.nanos = nanos;
    }

    /**
     * Runs body until it returns; after a conflict, pauses and runs it again while attempts, the
     * deadline and claimed allow, and otherwise answers what giveUp answers for the last conflict.
     * The first attempt reads no clock and allocates nothing here: single-item writes come through
     * this on every call, and nearly all of them commit at once.
     */
    public <T> T run(Claimed claimed, GiveUp<T> giveUp, Body<T> body) {
        try {
            return body.attempt();
        } catch (StoreConflictException first) {
            return retry(claimed, giveUp, body, first);
        }
    }

    /** The attempts after the first conflict: at most ATTEMPTS_MAX - 1 more. */
    private <T> T retry(Claimed claimed, GiveUp<T> giveUp, Body<T> body, StoreConflictException first) {
        assert claimed != null && giveUp != null && body != null;
        long startNanos = nanos.now();
        StoreConflictException last = first;
        for (int attempt = 1; attempt < ATTEMPTS_MAX; attempt++) {
            long elapsedMillis = (nanos.now() - startNanos) / 1_000_000;
            if (!retries(
                    claimed,
                    last.claimed(),
                    elapsedMillis,
                    Thread.currentThread().isInterrupted())) {
                break;
            }
            pauser.pause(backoffCapMicros(attempt - 1));
            try {
                return body.attempt();
            } catch (StoreConflictException e) {
                last = e;
            }
        }
        return giveUp.answer(last);
    }

    /**
     * Whether a conflict is run again (attempts are counted by the caller's loop): not a claim the
     * caller gives up on, not past the deadline, and not on an interrupted thread (an engine
     * closing: the answer is given now rather than after the pauses).
     */
    static boolean retries(Claimed claimed, boolean conflictClaimed, long elapsedMillis, boolean interrupted) {
        assert elapsedMillis >= 0 : elapsedMillis;
        if (conflictClaimed && claimed == Claimed.GIVE_UP) {
            return false;
        }
        return elapsedMillis < DEADLINE_MILLIS && !interrupted;
    }

    /** The longest pause after attempt (0 for the first) conflicted, in microseconds. */
    static long backoffCapMicros(int attempt) {
        assert attempt >= 0 : attempt;
        int doublings = Math.min(attempt, Long.numberOfLeadingZeros(BACKOFF_MICROS_FIRST) - 1);
        long capMicros = Math.min(BACKOFF_MICROS_MAX, BACKOFF_MICROS_FIRST << doublings);
        assert capMicros >= BACKOFF_MICROS_FIRST && capMicros <= BACKOFF_MICROS_MAX : capMicros;
        return capMicros;
    }

    /** Parks for a random time between half the cap and the cap; returns early on interrupt. */
    private static final class Parking implements Pauser {
        @Override
        public void pause(long capMicros) {
            assert capMicros > 0 : capMicros;
            LockSupport.parkNanos(1000 * ThreadLocalRandom.current().nextLong(capMicros / 2, capMicros + 1));
        }
    }

    private static final class SystemNanos implements Nanos {
        @Override
        public long now() {
            return System.nanoTime();
        }
    }
}
