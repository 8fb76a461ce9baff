package dev.kumiko.storage.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The memory store's hash table of its cells, for point reads (a GetItem, the read before every
 * write, the lookups of a batch's keys): open addressing with linear probing over one array of
 * cells. One writer at a time changes it (the store's batch lock); readers take no lock.
 *
 * <p>Why not a {@code ConcurrentHashMap}: a lookup there goes from the table's slot to a node, from
 * the node to the cell, and from the cell to its key bytes, and in a store of a few hundred
 * thousand keys each step is a likely cache miss. Here the slot holds the cell: one miss fewer per
 * lookup, and no 32-byte node per key. {@link #getAll} loads the slots of many keys before it
 * compares any of them, so that their misses overlap instead of following each other.
 *
 * <p>Writers are serialized already, so the table needs no locking of its own: a slot goes from
 * empty to a cell, from a cell to a tombstone (so that probes for keys placed past it go on), and
 * from a tombstone to a cell, each published with a release store. When cells and tombstones fill
 * half the slots, the table is rebuilt into a new array without tombstones. A reader that still
 * holds the old array sees the table as it was then: a cell removed since is marked deleted (its
 * read returns null), and a cell added since is not there, as if the read had come a moment
 * earlier.
 */
final class PointTable {
    static final int CAPACITY_MIN = 1 << 10;
    /** Past 2^30 slots an array's length overflows the doubling; the store is far from that. */
    static final int CAPACITY_MAX = 1 << 30;
    /** Cells and tombstones together fill at most 1/LOAD_DIVISOR of the slots. */
    private static final int LOAD_DIVISOR = 2;
    /** A rebuilt table's cells fill at most 1/REBUILT_LOAD_DIVISOR of it: room to grow before the next. */
    private static final int REBUILT_LOAD_DIVISOR = 4;
    /** 2^32 divided by the golden ratio: spreads the keys' polynomial hashes over the high bits. */
    private static final int SPREAD = 0x9E3779B9;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Cell[].class);
    /** A removed cell's slot; compared by identity only, never by key. */
    private static final Cell TOMBSTONE = new Cell(new PointKey(new byte[0]), new byte[0]);

    private volatile Cell[] slots = new Cell[CAPACITY_MIN];
    // Written and read by the writer only (the store's batch lock).
    private int cells;
    private int tombstones;

    /** The cell of probe's key, or null. Lock-free. */
    @Nullable
    Cell get(PointKey probe) {
        return find(slots, probe);
    }

    /**
     * The cells of probes' keys into found (null where a key has none). Lock-free. Each step of a
     * lookup is taken for every probe before the next step of any: the home slots, then the cells
     * in them (their hashes), then the cells' key bytes. Within a step the loads are independent,
     * so the processor waits for their cache misses together, not one after the other.
     */
    void getAll(PointKey[] probes, Cell[] found) {
        assert found.length >= probes.length;
        Cell[] s = slots;
        int shift = shiftOf(s);
        for (int i = 0; i < probes.length; i++) {
            found[i] = (Cell) SLOT.getAcquire(s, home(probes[i].hash(), shift));
        }
        for (int i = 0; i < probes.length; i++) {
            Cell first = found[i];
            if (first != null && (first == TOMBSTONE || first.keyHash() != probes[i].hash())) {
                found[i] = find(s, probes[i]);
            }
        }
        for (int i = 0; i < probes.length; i++) {
            Cell c = found[i];
            // A cell find() returned compares again here, from the cache.
            if (c != null && !Arrays.equals(c.key(), probes[i].bytes())) {
                found[i] = find(s, probes[i]);
            }
        }
    }

    /** Adds cell, whose key the table does not hold. Writer only (the store's batch lock). */
    void add(Cell cell) {
        if ((long) (cells + tombstones + 1) * LOAD_DIVISOR > slots.length) {
            rebuild();
        }
        Cell[] s = slots;
        int mask = s.length - 1;
        for (int i = home(cell.keyHash(), shiftOf(s)), probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
            Cell c = s[i];
            if (c == null || c == TOMBSTONE) {
                if (c == TOMBSTONE) {
                    tombstones--;
                }
                SLOT.setRelease(s, i, cell);
                cells++;
                return;
            }
            assert !Arrays.equals(c.key(), cell.key()) : "a key added twice";
        }
        throw new IllegalStateException("point table full: " + cells + " cells, " + tombstones + " tombstones");
    }

    /** Removes cell (by identity), which the table holds. Writer only (the store's batch lock). */
    void remove(Cell cell) {
        Cell[] s = slots;
        int mask = s.length - 1;
        for (int i = home(cell.keyHash(), shiftOf(s)), probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
            Cell c = s[i];
            if (c == cell) {
                SLOT.setRelease(s, i, TOMBSTONE);
                cells--;
                tombstones++;
                return;
            }
            if (c == null) {
                break;
            }
        }
        throw new IllegalStateException("cell not in the point table");
    }

    /** Cells held (writer only). */
    int size() {
        return cells;
    }

    /** Slots of the current array (for tests of the rebuild). */
    int capacity() {
        return slots.length;
    }

    private static @Nullable Cell find(Cell[] s, PointKey probe) {
        int mask = s.length - 1;
        for (int i = home(probe.hash(), shiftOf(s)), probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
            Cell c = (Cell) SLOT.getAcquire(s, i);
            if (c == null) {
                return null;
            }
            if (c != TOMBSTONE && matches(c, probe)) {
                return c;
            }
        }
        return null; // not reached: at least half the slots are empty
    }

    private static boolean matches(Cell c, PointKey probe) {
        return c.keyHash() == probe.hash() && Arrays.equals(c.key(), probe.bytes());
    }

    /**
     * A new array without tombstones, sized for the cells held to fill at most a quarter of it (so
     * a table that fills up doubles). It copies every cell while the writer holds the store's batch
     * lock: other writers wait that long (about 35 ms at 500,000 cells on the project's machine),
     * readers do not.
     */
    private void rebuild() {
        Cell[] old = slots;
        long wanted = (long) cells * REBUILT_LOAD_DIVISOR;
        int capacity = CAPACITY_MIN;
        while (capacity < wanted) {
            if (capacity == CAPACITY_MAX) {
                throw new IllegalStateException("point table at its maximum of " + CAPACITY_MAX + " slots");
            }
            capacity <<= 1;
        }
        Cell[] fresh = new Cell[capacity];
        int mask = capacity - 1;
        int shift = shiftOf(fresh);
        for (Cell c : old) {
            if (c != null && c != TOMBSTONE) {
                int i = home(c.keyHash(), shift);
                while (fresh[i] != null) {
                    i = (i + 1) & mask;
                }
                fresh[i] = c;
            }
        }
        tombstones = 0;
        slots = fresh; // the volatile write publishes the filled array
    }

    /** Fibonacci hashing: the top bits of hash × SPREAD, as many as the table's size has. */
    private static int home(int hash, int shift) {
        return (hash * SPREAD) >>> shift;
    }

    private static int shiftOf(Cell[] s) {
        return Integer.numberOfLeadingZeros(s.length - 1);
    }
}
