package dev.kumiko.engine.changelog;

import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * One table's sequence numbers: the next one to hand out, the ones handed out whose batch is not
 * applied yet, and the highest committed one.
 *
 * <p>Why readers need more than "what is in the store": writers to different items run at once
 * under different lock stripes, so writer A can take sequence 7, writer B sequence 8, and B's
 * batch can land first. A reader that saw 8 and moved past it would never see 7. So a reader only
 * reads below the {@link #visibleBound}: the lowest number still in flight, or the next number
 * when none is. Everything below the bound is final: committed, or never to be written (a write
 * that failed releases its number and leaves a gap, which readers simply do not find).
 *
 * <p>This is a local store's cache of the table's {@link SequenceCounter}: numbers are handed out
 * from a block reserved in the store before its first number is used, so the store never holds a
 * value below a number in use, and a restart (or another engine, which shares this instance)
 * continues above it.
 *
 * <p>Bounded: at most one number in flight per writing thread.
 */
final class TableSequence {
    private long next;
    private long lastCommitted;
    private long reservedBelow;
    private final LongConsumer reserve;
    private final TreeSet<Long> inFlight = new TreeSet<>();

    /**
     * next: the first number to hand out; lastCommitted: the highest number with a record;
     * reservedBelow: the stored counter (numbers below it are reserved for this cache); reserve
     * stores a new counter value durably before any number below it is handed out.
     */
    TableSequence(long next, long lastCommitted, long reservedBelow, LongConsumer reserve) {
        assert next > lastCommitted && lastCommitted >= 0;
        this.next = next;
        this.lastCommitted = lastCommitted;
        this.reservedBelow = reservedBelow;
        this.reserve = reserve;
    }

    synchronized long allocate() {
        if (next >= reservedBelow) {
            long below = next + SequenceCounter.BLOCK_NUMBERS;
            reserve.accept(below);
            reservedBelow = below;
        }
        long s = next++;
        inFlight.add(s);
        return s;
    }

    /** The batch holding the record of sequence s was applied (committed) or abandoned. */
    synchronized void finish(long s, boolean committed) {
        boolean removed = inFlight.remove(s);
        assert removed : "sequence " + s + " was not in flight";
        if (committed && s > lastCommitted) {
            lastCommitted = s;
        }
    }

    /** Every record below this number is final; readers never read at or above it. */
    synchronized long visibleBound() {
        return inFlight.isEmpty() ? next : inFlight.first();
    }

    /**
     * Where a reader that wants only what comes after now starts (a LATEST iterator): just after
     * the newest committed record, but never past a number still in flight. Never beyond a
     * number some record holds (or held, before trimming), so that a position handed out before a
     * restart cannot jump over numbers handed out again after it.
     */
    synchronized long latest() {
        return Math.min(visibleBound(), lastCommitted + 1);
    }

    /** The number the next allocation will get: a boundary for streams and shards. */
    synchronized long peekNext() {
        return next;
    }
}
