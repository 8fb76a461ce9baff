package dev.kumiko.rocksdb;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * Values of recently read or written keys, in the Java heap, so that a point read of a hot key
 * (a GetItem, the read of the old item before every write) costs a hash lookup instead of a JNI
 * call into RocksDB's memtable and block cache. Two-way: a key is held in one of two neighbouring
 * slots, and a third key hashing to them replaces one at random (one slot per key held 91 % of
 * 100,000 items, so nine in ten BatchWriteItems of 25 still called RocksDB for a missing one).
 * Bounded by a size in bytes; a value larger than {@link #VALUE_BYTES_MAX} is never held. An absent key can be held too (a write of a new item
 * reads it first).
 *
 * <p>A slot is a {@link Cell} rewritten in place, guarded by the slot's stamp: odd while one
 * thread changes it, and two higher after every change. Readers copy a cell and keep the copy
 * only if the stamp did not move (a sequence lock). Rewriting in place keeps the cache from
 * making garbage that lives long: new entries per write made young collections copy every
 * entry written since the last one and scan the slots' dirty cards (pauses of 7-24 ms under
 * UpdateItem, against about 1 ms without the cache).
 *
 * <p>The cache never answers with a value older than the store's:
 * <ul>
 *   <li>A reader that misses counts itself in the slot's {@code readers} stripe, notes the
 *       stamp, reads the store, and fills the slot (claiming it from the noted stamp) only if
 *       no writer of the stripe and no range delete is in flight. Any change since the note
 *       makes the claim fail.</li>
 *   <li>A writer counts itself in the slot's {@code writers} stripe and, before its store write,
 *       marks its key's cell pending, so no reader is answered from the old value while the
 *       write lands. After the write it turns its mark into the new value if it was the stripe's
 *       only writer and nothing touched the slot since its mark; otherwise it empties the cell.
 *       If the slot holds another key while a reader of the stripe is filling, it moves the
 *       stamp, which fails that reader's fill (of a value read before the write).</li>
 *   <li>A range delete stops fills, empties the range's cells and moves the stamps of the other
 *       slots that a reader is filling, deletes in the store, and lets fills resume.</li>
 * </ul>
 * Counter additions (RocksDB merges) empty their key's cell: the cache does not sum.
 */
final class PointCache {
    /** A value larger than this is not held: one 400 KB item would push out a thousand small ones. */
    static final int VALUE_BYTES_MAX = 16 << 10;
    /** Bytes a cell costs besides its key and value buffers: the cell and two array headers. */
    static final int CELL_OVERHEAD_BYTES = 64;
    /**
     * Bytes of budget per slot: one slot per 128 bytes keeps most slots free when the budget is
     * full of ~200-byte items, so that few hot keys compete for a pair of slots.
     */
    static final int BUDGET_BYTES_PER_SLOT = 128;

    static final int SLOTS_MIN = 64;
    static final int SLOTS_MAX = 1 << 24;
    /** Slots per reader and writer count: the counts bound fills, not answers, so sharing is safe. */
    static final int SLOTS_PER_STRIPE = 8;
    /** A value buffer holds 1/8 more than the value it is made for, so a slightly larger one fits next time. */
    static final int HEADROOM_DIVISOR = 8;
    /** From {@link #lookup}: the key is held as absent. */
    static final Object ABSENT = new Object();
    /** From {@link #beforeWrite}: neither slot held the key, so there is no mark to turn into a value. */
    static final long NO_MARK = -1;

    static final int VACANT = 0;
    static final int PENDING = 1;
    static final int PRESENT = 2;
    static final int HELD_ABSENT = 3;

    /** One slot's content; its fields change only while the slot's stamp is odd. */
    static final class Cell {
        int kind = VACANT;
        int hash;
        byte[] key = new byte[0];
        byte[] value = new byte[0];
        int valueLength;

        boolean isOf(byte[] k, int h) {
            byte[] held = key;
            return kind != VACANT && hash == h && Arrays.equals(held, k);
        }

        long costBytes() {
            return CELL_OVERHEAD_BYTES + (long) key.length + value.length;
        }
    }

    private final Cell[] cells;
    private final AtomicLongArray stamps;
    private final AtomicIntegerArray readers;
    private final AtomicIntegerArray writers;
    private final int mask;
    private final long budgetBytes;
    private final AtomicLong heldBytes = new AtomicLong();
    private final AtomicInteger rangeDeletes = new AtomicInteger();

    PointCache(long budgetBytes) {
        this(budgetBytes, slotsFor(budgetBytes));
    }

    /** slotCount: a power of two; tests give few slots so that keys share them. */
    PointCache(long budgetBytes, int slotCount) {
        if (budgetBytes <= 0 || Integer.bitCount(slotCount) != 1 || slotCount < SLOTS_MIN || slotCount > SLOTS_MAX) {
            throw new IllegalArgumentException("point cache of " + budgetBytes + " bytes, " + slotCount + " slots");
        }
        this.budgetBytes = budgetBytes;
        this.cells = new Cell[slotCount];
        this.stamps = new AtomicLongArray(slotCount);
        this.readers = new AtomicIntegerArray(slotCount / SLOTS_PER_STRIPE);
        this.writers = new AtomicIntegerArray(slotCount / SLOTS_PER_STRIPE);
        this.mask = slotCount - 1;
    }

    static int slotsFor(long budgetBytes) {
        long wanted = Math.max(SLOTS_MIN, Math.min(SLOTS_MAX, budgetBytes / BUDGET_BYTES_PER_SLOT));
        return Integer.highestOneBit((int) wanted);
    }

    static int hash(byte[] key) {
        int h = Arrays.hashCode(key);
        return h ^ (h >>> 16);
    }

    long heldBytes() {
        return heldBytes.get();
    }

    // ------------------------------------------------------------------ the sequence lock

    /** The slot's stamp once even (no change running). */
    private long stableStamp(int slot) {
        while (true) {
            long s = stamps.get(slot);
            if ((s & 1) == 0) {
                return s;
            }
            Thread.onSpinWait();
        }
    }

    /** Whether the plain reads since stamp s saw one state of the slot (StampedLock.validate's fence). */
    private boolean unchanged(int slot, long s) {
        VarHandle.acquireFence();
        return stamps.get(slot) == s;
    }

    /** Claims the slot for a change if its stamp is still s; the change ends with {@link #release}. */
    private boolean claim(int slot, long s) {
        return stamps.compareAndSet(slot, s, s + 1);
    }

    /** Ends the change claimed at (even) stamp s: publishes it under stamp s + 2, returned. */
    private long release(int slot, long s) {
        stamps.set(slot, s + 2);
        return s + 2;
    }

    // ------------------------------------------------------------------ reads

    /**
     * What a read of key finds: the held value (a copy), {@link #ABSENT} when the key is held as
     * absent, or a {@link Fill} to pass, with the store's value, to {@link #fill} after reading the
     * store, and then to {@link #done}.
     */
    Object lookup(byte[] key) {
        int hash = hash(key);
        int slot = hash & mask;
        Object hit = hit(slot, key, hash);
        if (hit == null) {
            hit = hit(slot ^ 1, key, hash);
        }
        if (hit != null) {
            return hit;
        }
        readers.incrementAndGet(slot / SLOTS_PER_STRIPE);
        // Looked at again after counting in: a writer that finishes later sees the count and moves
        // the stamp, which fails this read's fill.
        hit = hit(slot, key, hash);
        if (hit == null) {
            hit = hit(slot ^ 1, key, hash);
        }
        if (hit != null) {
            readers.decrementAndGet(slot / SLOTS_PER_STRIPE);
            return hit;
        }
        int target = victim(slot);
        while (true) {
            long s = stableStamp(target);
            Cell c = cells[target];
            int kind = c == null ? VACANT : c.kind;
            if (unchanged(target, s)) {
                return new Fill(key, hash, target, s, kind != PENDING);
            }
        }
    }

    /**
     * Which of a key's two slots (slot and its neighbour) a fill takes: an empty one if there is
     * one, else one at random, so that two hot keys of one pair of slots both stay held.
     */
    private int victim(int slot) {
        Cell first = cells[slot];
        if (first == null || first.kind == VACANT) {
            return slot;
        }
        Cell second = cells[slot ^ 1];
        if (second == null || second.kind == VACANT) {
            return slot ^ 1;
        }
        return ThreadLocalRandom.current().nextBoolean() ? slot : slot ^ 1;
    }

    /** The held value of key (a copy) or ABSENT, or null when the slot does not hold it now. */
    private @Nullable Object hit(int slot, byte[] key, int hash) {
        while (true) {
            long s = stamps.get(slot);
            if ((s & 1) != 0) {
                return null;
            }
            Cell c = cells[slot];
            if (c == null || !c.isOf(key, hash)) {
                return null; // a miss either way: lookup looks again under a stable stamp
            }
            int kind = c.kind;
            byte[] held = c.value;
            int n = c.valueLength;
            // held and n may be from two different changes; the stamp check throws such a copy away.
            byte[] copy = kind == PRESENT ? Arrays.copyOf(held, n) : null;
            if (unchanged(slot, s)) {
                if (kind == PRESENT) {
                    return copy;
                }
                return kind == HELD_ABSENT ? ABSENT : null;
            }
        }
    }

    /** A miss of one key: the stamp its read noted, and whether it may fill the slot. */
    static final class Fill {
        final byte[] key;
        final int hash;
        final int slot;
        final long stamp;
        final boolean fillable;

        Fill(byte[] key, int hash, int slot, long stamp, boolean fillable) {
            this.key = key;
            this.hash = hash;
            this.slot = slot;
            this.stamp = stamp;
            this.fillable = fillable;
        }
    }

    /** Holds value (null: absent), read from the store after the lookup, unless a write may have overtaken it. */
    void fill(Fill f, byte @Nullable [] value) {
        if (!f.fillable
                || (value != null && value.length > VALUE_BYTES_MAX)
                || writers.get(f.slot / SLOTS_PER_STRIPE) != 0
                || rangeDeletes.get() != 0) {
            return;
        }
        if (claim(f.slot, f.stamp)) {
            try {
                store(f.slot, f.key, f.hash, value);
            } finally {
                release(f.slot, f.stamp);
            }
        }
    }

    /** Ends a miss's count; always after {@link #lookup} returned a Fill, whether or not it filled. */
    void done(Fill f) {
        readers.decrementAndGet(f.slot / SLOTS_PER_STRIPE);
    }

    /**
     * Writes key and value (null: absent) into the claimed slot's cell, reusing its buffers where
     * they fit; leaves the cell vacant instead when new buffers would take the cache past its budget.
     */
    private void store(int slot, byte[] key, int hash, byte @Nullable [] value) {
        Cell c = cells[slot];
        int n = value == null ? 0 : value.length;
        boolean keyFits = c != null && c.key.length == key.length;
        // An absent key keeps the cell's value buffer: a load reads each new item as absent and
        // then writes it, and the write then fits the buffer the slot's last item left.
        boolean valueFits = c != null && (value == null || (n <= c.value.length && n >= c.value.length / 2));
        long beforeBytes = c == null ? 0 : c.costBytes();
        long afterBytes = CELL_OVERHEAD_BYTES + (long) key.length + (valueFits ? c.value.length : capacityFor(n));
        long grownBytes = afterBytes - beforeBytes;
        if (grownBytes > 0 && heldBytes.addAndGet(grownBytes) > budgetBytes) {
            heldBytes.addAndGet(-grownBytes);
            if (c != null) {
                c.kind = VACANT;
            }
            return;
        }
        if (grownBytes <= 0) {
            heldBytes.addAndGet(grownBytes);
        }
        if (c == null) {
            c = new Cell();
            cells[slot] = c; // under the claim; published by release's volatile write
        }
        // Vacant until whole: if an allocation below fails, the cell answers nothing (the caller
        // releases the slot either way), never a key with another key's value.
        c.kind = VACANT;
        // Only changed buffers are stored: a reference store dirties the old generation's card.
        if (keyFits) {
            System.arraycopy(key, 0, c.key, 0, key.length);
        } else {
            c.key = key.clone();
        }
        if (!valueFits) {
            c.value = new byte[capacityFor(n)];
        }
        if (value != null) {
            System.arraycopy(value, 0, c.value, 0, n);
        }
        c.valueLength = n;
        c.hash = hash;
        c.kind = value == null ? HELD_ABSENT : PRESENT;
    }

    static int capacityFor(int n) {
        return n + n / HEADROOM_DIVISOR;
    }

    // ------------------------------------------------------------------ writes

    /**
     * Before a store write of key: counts the writer in and marks pending each of the key's two
     * slots that holds it. Returns the mark to pass to {@link #afterWrite}: the marked slot's new
     * stamp (even), plus 1 for the second slot; or {@link #NO_MARK} when neither held the key.
     */
    long beforeWrite(byte[] key) {
        int hash = hash(key);
        int slot = hash & mask;
        writers.incrementAndGet(slot / SLOTS_PER_STRIPE);
        long mark = mark(slot, key, hash);
        long second = mark(slot ^ 1, key, hash);
        if (mark != NO_MARK) {
            return mark; // a second copy of the key, if any, is dropped after the write
        }
        return second == NO_MARK ? NO_MARK : second | 1;
    }

    /** Marks the slot's cell pending if it holds key; its new stamp, or NO_MARK. */
    private long mark(int slot, byte[] key, int hash) {
        while (true) {
            long s = stableStamp(slot);
            Cell c = cells[slot];
            boolean held = c != null && c.isOf(key, hash);
            if (!unchanged(slot, s)) {
                continue;
            }
            if (!held) {
                return NO_MARK;
            }
            if (claim(slot, s)) {
                // A fresh stamp, also when the cell was another writer's mark: that writer's own
                // claim from its mark then fails, and it empties the cell instead.
                c.kind = PENDING;
                return release(slot, s);
            }
        }
    }

    /**
     * After the store write of key (also after a failed one, with written false): the cell gets the
     * new value (null: deleted) if this was the stripe's only writer, the write succeeded, and
     * nothing touched the slot since the mark; otherwise anything the slot holds of the key is
     * dropped. holdValue false: the write was a counter addition, whose result the cache does not
     * know. Counts the writer out.
     */
    void afterWrite(byte[] key, long mark, byte @Nullable [] value, boolean holdValue, boolean written) {
        int hash = hash(key);
        int slot = hash & mask;
        int stripe = slot / SLOTS_PER_STRIPE;
        try {
            int marked = mark == NO_MARK ? -1 : slot ^ (int) (mark & 1);
            long stamp = mark & ~1L;
            if (mark != NO_MARK
                    && written
                    && holdValue
                    && writers.get(stripe) == 1
                    && rangeDeletes.get() == 0
                    && (value == null || value.length <= VALUE_BYTES_MAX)
                    && claim(marked, stamp)) {
                try {
                    store(marked, key, hash, value);
                } finally {
                    release(marked, stamp);
                    forget(marked ^ 1, key, hash);
                }
                return;
            }
            forget(slot, key, hash);
            forget(slot ^ 1, key, hash);
        } finally {
            writers.decrementAndGet(stripe);
        }
    }

    /** Empties the slot if it holds key (held or pending); see {@link #clear}. */
    private void forget(int slot, byte[] key, int hash) {
        clear(slot, key, hash, null, null);
    }

    /**
     * Empties the slot if it holds key (or, with key null, a key in [rangeStart, rangeEnd)); if it
     * holds something else while a reader of the stripe is filling, moves the stamp, so that
     * reader's fill (of a value read before the write) fails.
     */
    private void clear(
            int slot, byte @Nullable [] key, int hash, byte @Nullable [] rangeStart, byte @Nullable [] rangeEnd) {
        while (true) {
            long s = stableStamp(slot);
            Cell c = cells[slot];
            boolean drop = c != null
                    && (key != null
                            ? c.isOf(key, hash)
                            : c.kind != VACANT
                                    && Arrays.compareUnsigned(c.key, rangeStart) >= 0
                                    && Arrays.compareUnsigned(c.key, rangeEnd) < 0);
            if (!unchanged(slot, s)) {
                continue;
            }
            if (drop) {
                if (claim(slot, s)) {
                    c.kind = VACANT;
                    release(slot, s);
                    return;
                }
            } else if (readers.get(slot / SLOTS_PER_STRIPE) != 0) {
                if (stamps.compareAndSet(slot, s, s + 2)) {
                    return;
                }
            } else {
                return;
            }
        }
    }

    // ------------------------------------------------------------------ range deletes

    /**
     * Before a store range delete: stops fills, then empties every cell of a key in [start, end)
     * and fails the fills in progress. Pair with {@link #afterRangeDelete}.
     */
    void beforeRangeDelete(byte[] startInclusive, byte[] endExclusive) {
        rangeDeletes.incrementAndGet();
        for (int slot = 0; slot <= mask; slot++) {
            clear(slot, null, 0, startInclusive, endExclusive);
        }
    }

    void afterRangeDelete() {
        rangeDeletes.decrementAndGet();
    }
}
