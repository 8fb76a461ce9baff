package dev.kumiko.storage.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * One key and its value in the memory store, the value kept in a buffer of the cell's own that an
 * overwrite of about the same size rewrites in place.
 *
 * <p>The store's hash table ({@link PointTable}) holds the cells themselves: a lookup goes from the
 * table's slot to the cell and its key bytes, and the value it reads is in the object it just
 * compared. Point lookups are a large share of a write's CPU (the read of the old item, then the
 * write of the item and its index entries) and each step is a likely cache miss.
 *
 * <p>Why in place: a value stored as a new array is a young object that an old cell points to.
 * Every young collection then had to find it through a dirty card and copy it out of the young
 * generation, so each pause grew with the data written since the last one (20–30 ms every
 * second under a PutItem load, which set the writes' p99). Bytes copied into an array the cell
 * already holds make no new object and no reference for the collector to follow.
 *
 * <p>Writers are serialized by the store's batch lock. Readers take no lock: they copy the value
 * out under a sequence number (a seqlock), which is odd while a writer changes the cell, and keep
 * the copy only if the number was even and the same before and after it. So a reader gets an
 * array of its own, never one a later write changes.
 */
final class Cell {
    /** A value this many times smaller than the buffer, or more, moves to a smaller one. */
    static final int SHRINK_RATIO = 2;
    /**
     * A buffer holds 1/8 more than the value it is made for, so that the next values of an item
     * that grows a little (a counter gaining a digit, an attribute added) still fit: otherwise
     * each such write made a new long-lived array, and collections slowed down again until every
     * item had been written twice.
     */
    static final int HEADROOM_DIVISOR = 8;
    /**
     * The heap a cell takes besides its key's and its buffer's bytes, estimated: the cell object (32
     * bytes with compressed references), the two arrays' headers (16 each), its slots in the point
     * table (2 to 4 references, as full as the table is) and in the tree's leaves (which are half to
     * wholly full), and the tree's inner nodes. Measured (200,000 keys of about 40 bytes, values of
     * 10, 100 and 1,000 bytes, heap after full collections): the heap grew by 0.76, 0.85 and 0.97
     * of the count, so the estimate errs on the safe side. A heap past 32 GB (no compressed
     * references) takes more per key, which the budget's margin below the heap absorbs.
     */
    static final int ENTRY_OVERHEAD_BYTES = 112;
    /** Arrays take whole multiples of 8 bytes of heap: room up to the next one costs nothing. */
    private static final int HEAP_ALIGNMENT_BYTES = 8;

    private static final int DELETED = -1;
    private static final VarHandle SEQUENCE;

    static {
        try {
            SEQUENCE = MethodHandles.lookup().findVarHandle(Cell.class, "sequence", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final byte[] key;
    private final int keyHash;
    // Written only under the batch lock; read racily by readers, who validate with sequence.
    private byte @Nullable [] buffer;
    private int length;
    private volatile int sequence;

    /**
     * A new cell for the probe's key (its bytes kept, not copied: the store's tree compares this
     * array; its hash taken over, not computed again) holding a copy of value, in a buffer of
     * its own: the caller's array may be stored under other keys too (an item and its index
     * entry), and this one is rewritten in place.
     */
    Cell(PointKey key, byte[] value) {
        assert key != null && value != null;
        this.key = key.bytes();
        this.keyHash = key.hash();
        this.buffer = new byte[capacityFor(value.length)];
        System.arraycopy(value, 0, buffer, 0, value.length);
        this.length = value.length;
    }

    byte[] key() {
        return key;
    }

    /** Arrays.hashCode of the key, as its PointKey had it. */
    int keyHash() {
        return keyHash;
    }

    /** False once deleted. Called under the batch lock (writers see each other's changes there). */
    boolean isLive() {
        return length != DELETED;
    }

    /** A copy of the value, or null once the cell is deleted. Lock-free; retries while a write runs. */
    byte @Nullable [] read() {
        while (true) {
            int before = sequence;
            if ((before & 1) == 0) {
                byte[] held = buffer;
                int n = length;
                // held and n may be from two different writes; the check below throws such a copy away.
                byte[] copy = held == null || n == DELETED ? null : Arrays.copyOf(held, n);
                // The copy's loads may not move after the check (StampedLock.validate's fence).
                VarHandle.acquireFence();
                if (sequence == before) {
                    return copy;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** The heap this live cell holds, by the store's estimate; called under the batch lock. */
    long heldBytes() {
        assert isLive();
        return (long) key.length + heldBuffer().length + ENTRY_OVERHEAD_BYTES;
    }

    /** What {@link #heldBytes} would be after a write of a value this long; called under the batch lock. */
    long heldBytesAfter(int valueLength) {
        assert isLive();
        byte[] held = heldBuffer();
        return (long) key.length
                + (fits(held, valueLength) ? held.length : capacityFor(valueLength))
                + ENTRY_OVERHEAD_BYTES;
    }

    /** What a new cell would hold for this key and a value this long. */
    static long heldBytesOfNew(int keyLength, int valueLength) {
        return (long) keyLength + capacityFor(valueLength) + ENTRY_OVERHEAD_BYTES;
    }

    /** The buffer of a live cell (only a deleted one has none). */
    private byte[] heldBuffer() {
        byte[] held = buffer;
        if (held == null) {
            throw new IllegalStateException("a deleted cell holds no buffer");
        }
        return held;
    }

    /** Whether a value this long is written into held rather than into a new buffer. */
    private static boolean fits(byte[] held, int valueLength) {
        return valueLength <= held.length && valueLength >= held.length / SHRINK_RATIO;
    }

    /** Replaces the value; called under the batch lock. */
    void write(byte[] value) {
        assert value != null && isLive();
        byte[] held = buffer; // null only once deleted, which the assertion rules out
        // Allocated before the sequence turns odd: an OutOfMemoryError here leaves the cell readable.
        byte[] target = held != null && fits(held, value.length) ? held : new byte[capacityFor(value.length)];
        int before = beginWrite();
        if (target != held) {
            // Only a new buffer is stored: any reference store marks the cell's card dirty, even of
            // the same array, and a young collection then scans every dirty card of the old
            // generation. Rewriting every cell in place marked all of them between two collections
            // (scavenges of 11 ms under BatchWriteItem that freed all but 128 KB).
            buffer = target;
        }
        System.arraycopy(value, 0, target, 0, value.length);
        length = value.length;
        sequence = before + 2;
    }

    /** Marks the cell deleted (a cursor holding it skips it); called under the batch lock. */
    void delete() {
        int before = beginWrite();
        buffer = null;
        length = DELETED;
        sequence = before + 2;
    }

    /** The value's length plus headroom, rounded up to the heap's alignment. */
    static int capacityFor(int lengthBytes) {
        assert lengthBytes >= 0;
        long wanted = (long) lengthBytes + lengthBytes / HEADROOM_DIVISOR;
        long aligned = (wanted + HEAP_ALIGNMENT_BYTES - 1) / HEAP_ALIGNMENT_BYTES * HEAP_ALIGNMENT_BYTES;
        return (int) Math.min(aligned, Integer.MAX_VALUE - HEAP_ALIGNMENT_BYTES);
    }

    /** Makes the sequence odd, visibly before any field or byte of the cell changes. */
    private int beginWrite() {
        int before = sequence;
        assert (before & 1) == 0 : "writers are serialized by the batch lock";
        SEQUENCE.setOpaque(this, before + 1);
        VarHandle.storeStoreFence();
        return before;
    }
}
