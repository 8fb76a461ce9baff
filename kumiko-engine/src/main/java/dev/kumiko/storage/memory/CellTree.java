package dev.kumiko.storage.memory;

import dev.kumiko.storage.Bytes;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The memory store's ordered index of its cells, for range reads (a Query page, a Scan, a range
 * delete): a B+tree whose nodes are never changed once published. A writer copies the path from the
 * root to the leaf it changes and publishes the new root; a reader takes the root once and walks
 * that version, with no lock and nothing to retry. One writer at a time (the store's batch lock).
 *
 * <p>Why not a {@code ConcurrentSkipListMap}: a seek there steps through index nodes, each step a
 * load of the index node, of its node and of the node's key, in a list of a few hundred thousand
 * keys each a likely cache miss (a seek was a tenth of a Query page's samples in memory), and its
 * iterator compares every key it passes with the range's end. Here a seek is a binary search in
 * each of three or four nodes of up to {@link #KEYS_MAX} entries, the next item of a page is the
 * next slot of the same leaf, and the range's end is found once per leaf.
 *
 * <p>A walk sees the tree as it was when it began: a key added since is not there (as if the read
 * had come a moment earlier), and a key removed since is still there, but its cell is marked
 * deleted and reads as null, which the store's cursor skips.
 *
 * <p>A change copies about one node per level (a new key of a store of 200,000 allocates about 1 KB
 * that the next young collection frees). Only a store's new and removed keys pay it: an overwrite
 * changes the key's cell, not the tree.
 */
final class CellTree {
    /** Most keys (a leaf) or children (an inner node) per node; a full node splits in halves. */
    static final int KEYS_MAX = 64;
    /**
     * The tree grows a level only when its root splits, which takes at least (KEYS_MAX / 2)^depth
     * keys added over its life (removals shrink nodes but never deepen it): 32^15 is beyond any
     * store. The walk's path arrays are sized by it.
     */
    static final int DEPTH_MAX = 16;

    private volatile Node root = Leaf.EMPTY;

    /** A leaf holds cells; an inner node children and the keys that separate them. */
    private abstract static sealed class Node permits Leaf, Inner {}

    /**
     * Cells in ascending order of their keys. The leaf holds no array of keys beside them: the
     * collector then copies each cell beside its key and value, and the cells of one leaf one after
     * another, so a walk over a page reads memory mostly in order.
     */
    private static final class Leaf extends Node {
        static final Leaf EMPTY = new Leaf(new Cell[0]);
        final Cell[] cells;

        Leaf(Cell[] cells) {
            assert cells.length <= KEYS_MAX;
            this.cells = cells;
        }
    }

    /** children[i] holds the keys in [seps[i - 1], seps[i]): seps has one element fewer than children. */
    private static final class Inner extends Node {
        final byte[][] seps;
        final Node[] children;

        Inner(byte[][] seps, Node[] children) {
            assert seps.length == children.length - 1 && children.length >= 1 && children.length <= KEYS_MAX;
            this.seps = seps;
            this.children = children;
        }
    }

    /** A node that split in two: left holds the keys below sep, right the rest. */
    private record Split(Node left, byte[] sep, Node right) {}

    /** Adds key's cell; the writer knows key is absent (the point table answered first). */
    void put(byte[] key, Cell cell) {
        Object changed = insert(root, key, cell, 0);
        if (changed instanceof Split s) {
            root = new Inner(new byte[][] {s.sep()}, new Node[] {s.left(), s.right()});
        } else {
            root = (Node) changed;
        }
    }

    /** Removes key and its cell, if present. */
    void remove(byte[] key) {
        Node changed = delete(root, key);
        while (changed instanceof Inner i && i.children.length == 1) {
            changed = i.children[0];
        }
        root = changed == null ? Leaf.EMPTY : changed;
    }

    /**
     * A walk over [startInclusive, endExclusive), ascending or descending, of the tree as it is now.
     * A start after the end is a caller's bug, not an empty range.
     */
    Walk walk(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        if (Bytes.ORDER.compare(startInclusive, endExclusive) > 0) {
            throw new IllegalArgumentException("range start is after its end");
        }
        return new Walk(root, startInclusive, endExclusive, reverse);
    }

    /** The new node, or a Split when it overflowed. */
    private static Object insert(Node node, byte[] key, Cell cell, int depth) {
        assert depth < DEPTH_MAX : depth;
        if (node instanceof Leaf leaf) {
            return insertIntoLeaf(leaf, key, cell);
        }
        Inner inner = (Inner) node;
        int c = childOf(inner.seps, key);
        Object changed = insert(inner.children[c], key, cell, depth + 1);
        if (!(changed instanceof Split s)) {
            Node[] children = inner.children.clone();
            children[c] = (Node) changed;
            return new Inner(inner.seps, children);
        }
        Node[] children = new Node[inner.children.length + 1];
        System.arraycopy(inner.children, 0, children, 0, c);
        children[c] = s.left();
        children[c + 1] = s.right();
        System.arraycopy(inner.children, c + 1, children, c + 2, inner.children.length - c - 1);
        byte[][] seps = inserted(inner.seps, c, s.sep());
        if (children.length <= KEYS_MAX) {
            return new Inner(seps, children);
        }
        int half = children.length / 2;
        return new Split(
                new Inner(Arrays.copyOfRange(seps, 0, half - 1), Arrays.copyOfRange(children, 0, half)),
                seps[half - 1],
                new Inner(
                        Arrays.copyOfRange(seps, half, seps.length),
                        Arrays.copyOfRange(children, half, children.length)));
    }

    private static Object insertIntoLeaf(Leaf leaf, byte[] key, Cell cell) {
        assert Arrays.equals(cell.key(), key);
        int i = lowerBound(leaf.cells, key);
        if (i < leaf.cells.length && Arrays.equals(leaf.cells[i].key(), key)) {
            Cell[] cells = leaf.cells.clone();
            cells[i] = cell;
            return new Leaf(cells);
        }
        Cell[] cells = inserted(leaf.cells, i, cell);
        if (cells.length <= KEYS_MAX) {
            return new Leaf(cells);
        }
        int half = cells.length / 2;
        return new Split(
                new Leaf(Arrays.copyOfRange(cells, 0, half)),
                cells[half].key(),
                new Leaf(Arrays.copyOfRange(cells, half, cells.length)));
    }

    /** The node without key (the same node when key is absent), or null when nothing is left in it. */
    private static @Nullable Node delete(Node node, byte[] key) {
        if (node instanceof Leaf leaf) {
            int i = lowerBound(leaf.cells, key);
            if (i == leaf.cells.length || !Arrays.equals(leaf.cells[i].key(), key)) {
                return leaf;
            }
            return leaf.cells.length == 1 ? null : new Leaf(removed(leaf.cells, i));
        }
        Inner inner = (Inner) node;
        int c = childOf(inner.seps, key);
        Node child = inner.children[c];
        Node changed = delete(child, key);
        if (changed == child) {
            return inner;
        }
        if (changed != null) {
            Node[] children = inner.children.clone();
            children[c] = changed;
            return new Inner(inner.seps, children);
        }
        if (inner.children.length == 1) {
            return null;
        }
        // Child c is gone: the separator at its low end goes with it (for the first child, the one
        // at its high end, so that the next child now starts at the lowest keys).
        return new Inner(removed(inner.seps, c == 0 ? 0 : c - 1), removed(inner.children, c));
    }

    /** The child whose range holds key: the number of separators at or below it. */
    private static int childOf(byte[][] seps, byte[] key) {
        int lo = 0;
        int hi = seps.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.ORDER.compare(seps[mid], key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first index whose key is at or above key (keys.length if none). */
    private static int lowerBound(byte[][] keys, byte[] key) {
        int lo = 0;
        int hi = keys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.ORDER.compare(keys[mid], key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first index whose cell's key is at or above key (cells.length if none). */
    private static int lowerBound(Cell[] cells, byte[] key) {
        int lo = 0;
        int hi = cells.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.ORDER.compare(cells[mid].key(), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static <T> T[] inserted(T[] a, int at, T value) {
        T[] out = Arrays.copyOf(a, a.length + 1);
        System.arraycopy(a, at, out, at + 1, a.length - at);
        out[at] = value;
        return out;
    }

    private static <T> T[] removed(T[] a, int at) {
        T[] out = Arrays.copyOf(a, a.length - 1);
        System.arraycopy(a, at + 1, out, at, a.length - at - 1);
        return out;
    }

    /**
     * One pass over a range of one version of the tree: the path from the root to the current leaf
     * (each inner node and the child taken there), the position in that leaf, and how far into the
     * leaf the range goes. That bound is found once per leaf (one comparison with its last or first
     * key, else a binary search), so the slots inside it are returned without comparing their keys:
     * each comparison loads a key's bytes, a likely cache miss, and a page of 50 items would
     * otherwise pay 50 of them.
     */
    static final class Walk {
        private final Inner[] path = new Inner[DEPTH_MAX];
        private final int[] taken = new int[DEPTH_MAX];
        private final byte[] startInclusive;
        private final byte[] endExclusive;
        private final boolean reverse;
        private int depth;
        private Leaf leaf;
        // Ascending: the next slot to return, and the first slot past the range (or the leaf's end).
        // Descending: the slot after the next one to return, and the first slot in the range.
        private int slot;
        private int bound;
        // Whether the range's far end (its end ascending, its start descending) lies in this leaf,
        // so that no leaf after it in the walk's direction holds any of the range.
        private boolean endsHere;

        Walk(Node root, byte[] startInclusive, byte[] endExclusive, boolean reverse) {
            this.startInclusive = startInclusive;
            this.endExclusive = endExclusive;
            this.reverse = reverse;
            byte[] from = reverse ? endExclusive : startInclusive;
            Node node = root;
            while (node instanceof Inner inner) {
                // Ascending, the child that holds the start; descending, the last child with keys below the end.
                int c = reverse ? lowerBound(inner.seps, from) : childOf(inner.seps, from);
                push(inner, c);
                node = inner.children[c];
            }
            enter((Leaf) node, lowerBound(((Leaf) node).cells, from));
        }

        /** The next cell in the range, or null at its end. */
        @Nullable
        Cell next() {
            if (reverse) {
                while (slot == bound) {
                    if (endsHere || !previousLeaf()) {
                        return null;
                    }
                }
                return leaf.cells[--slot];
            }
            while (slot == bound) {
                if (endsHere || !nextLeaf()) {
                    return null;
                }
            }
            return leaf.cells[slot++];
        }

        /** Makes leaf current at slot, and finds how far the range goes into it. */
        private void enter(Leaf entered, int at) {
            leaf = entered;
            slot = at;
            Cell[] cells = entered.cells;
            int n = cells.length;
            if (reverse) {
                endsHere = n > 0 && Bytes.ORDER.compare(cells[0].key(), startInclusive) < 0;
                bound = endsHere ? Math.min(lowerBound(cells, startInclusive), at) : 0;
            } else {
                endsHere = n > 0 && Bytes.ORDER.compare(cells[n - 1].key(), endExclusive) >= 0;
                bound = endsHere ? Math.max(lowerBound(cells, endExclusive), at) : n;
            }
        }

        private boolean nextLeaf() {
            while (depth > 0 && taken[depth - 1] == path[depth - 1].children.length - 1) {
                depth--;
            }
            if (depth == 0) {
                return false;
            }
            Inner inner = path[depth - 1];
            int c = ++taken[depth - 1];
            Node node = inner.children[c];
            while (node instanceof Inner i) {
                push(i, 0);
                node = i.children[0];
            }
            enter((Leaf) node, 0);
            return true;
        }

        private boolean previousLeaf() {
            while (depth > 0 && taken[depth - 1] == 0) {
                depth--;
            }
            if (depth == 0) {
                return false;
            }
            Inner inner = path[depth - 1];
            int c = --taken[depth - 1];
            Node node = inner.children[c];
            while (node instanceof Inner i) {
                push(i, i.children.length - 1);
                node = i.children[i.children.length - 1];
            }
            Leaf entered = (Leaf) node;
            enter(entered, entered.cells.length);
            return true;
        }

        private void push(Inner inner, int child) {
            assert depth < DEPTH_MAX : depth;
            path[depth] = inner;
            taken[depth] = child;
            depth++;
        }
    }
}
