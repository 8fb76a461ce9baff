package dev.kumiko.storage.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kumiko.storage.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The memory store's ordered index against a TreeMap: adds and removes in a seeded random order
 * (splits, emptied leaves and inner nodes, a root that shrinks), walks over random ranges both
 * ways, and readers that walk while the writer changes the tree.
 */
class CellTreeTest {
    private static final int KEY_SPACE = 20_000;
    private static final int OPERATIONS = 120_000;

    @Test
    void randomAddsAndRemovesAgreeWithATreeMap() {
        Random random = new Random(7);
        CellTree tree = new CellTree();
        NavigableMap<byte[], Cell> model = new TreeMap<>(Bytes.ORDER);
        for (int op = 0; op < OPERATIONS; op++) {
            byte[] key = key(random.nextInt(KEY_SPACE));
            // Phases of mostly adds and mostly removes, so that nodes split, empty and go.
            boolean adding = (op / 20_000) % 2 == 0 ? random.nextInt(4) != 0 : random.nextInt(4) == 0;
            if (adding && !model.containsKey(key)) {
                Cell cell = cell(key);
                tree.put(key, cell);
                model.put(key, cell);
            } else if (!adding) {
                tree.remove(key);
                model.remove(key);
            }
            if (op % 2_000 == 0) {
                checkWalks(random, model, tree);
            }
        }
        checkWalks(random, model, tree);
        for (byte[] key : new ArrayList<>(model.keySet())) {
            tree.remove(key);
        }
        assertNull(tree.walk(key(0), new byte[] {(byte) 0xff}, false).next());
    }

    @Test
    void aWalkSeesTheTreeAsItWasWhenItBegan() {
        CellTree tree = new CellTree();
        byte[] all = new byte[] {(byte) 0xff};
        int size = 0;
        // Each walk begins before one change and is read after it: it must not see that change.
        for (int i = 0; i < 3_000; i++) {
            CellTree.Walk walk = tree.walk(new byte[0], all, false);
            tree.put(key(i), cell(key(i)));
            assertEquals(size, walked(walk).size(), "a walk begun before adding key " + i);
            size++;
        }
        for (int i = 0; i < 3_000; i += 2) {
            CellTree.Walk walk = tree.walk(new byte[0], all, true);
            tree.remove(key(i));
            assertEquals(size, walked(walk).size(), "a walk begun before removing key " + i);
            size--;
        }
    }

    @Test
    void readersWalkInOrderWhileTheWriterAddsAndRemoves() throws InterruptedException {
        CellTree tree = new CellTree();
        List<byte[]> staying = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            byte[] key = key(i * 10);
            staying.add(key);
            tree.put(key, cell(key));
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            boolean reverse = r == 1;
            Thread t = new Thread(() -> {
                while (!done.get() && failure.get() == null) {
                    String problem = walkProblem(tree, staying, reverse);
                    if (problem != null) {
                        failure.set(problem);
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        Random random = new Random(11);
        for (int op = 0; op < 200_000 && failure.get() == null; op++) {
            // Keys between the staying ones (never a multiple of 10), added and removed at random.
            int i = random.nextInt(2_000) * 10 + 1 + random.nextInt(9);
            if (random.nextBoolean()) {
                tree.remove(key(i));
            } else if (!containsKey(tree, key(i))) {
                tree.put(key(i), cell(key(i)));
            }
        }
        done.set(true);
        for (Thread t : readers) {
            t.join();
        }
        assertNull(failure.get());
    }

    /** Null when a full walk returns keys in order and every staying key among them. */
    private static String walkProblem(CellTree tree, List<byte[]> staying, boolean reverse) {
        CellTree.Walk walk = tree.walk(new byte[0], new byte[] {(byte) 0xff}, reverse);
        byte[] last = null;
        int stayingSeen = 0;
        for (Cell c = walk.next(); c != null; c = walk.next()) {
            if (last != null && Bytes.ORDER.compare(last, c.key()) * (reverse ? -1 : 1) >= 0) {
                return "out of order: " + text(last) + " then " + text(c.key());
            }
            last = c.key();
            if (Integer.parseInt(text(c.key()).substring("t1/".length())) % 10 == 0) {
                stayingSeen++;
            }
        }
        return stayingSeen == staying.size() ? null : "saw " + stayingSeen + " of " + staying.size() + " staying keys";
    }

    private static boolean containsKey(CellTree tree, byte[] key) {
        byte[] end = java.util.Arrays.copyOf(key, key.length + 1);
        return tree.walk(key, end, false).next() != null;
    }

    private static void checkWalks(Random random, NavigableMap<byte[], Cell> model, CellTree tree) {
        for (int i = 0; i < 20; i++) {
            byte[] a = key(random.nextInt(KEY_SPACE));
            byte[] b = key(random.nextInt(KEY_SPACE));
            byte[] start = Bytes.ORDER.compare(a, b) <= 0 ? a : b;
            byte[] end = start == a ? b : a;
            boolean reverse = random.nextBoolean();
            NavigableMap<byte[], Cell> range = model.subMap(start, true, end, false);
            List<Cell> expected = new ArrayList<>((reverse ? range.descendingMap() : range).values());
            assertEquals(
                    expected,
                    walked(tree.walk(start, end, reverse)),
                    () -> "range " + text(start) + " .. " + text(end) + (reverse ? " reversed" : ""));
        }
        List<Cell> all = walked(tree.walk(new byte[0], new byte[] {(byte) 0xff}, false));
        assertEquals(new ArrayList<>(model.values()), all);
    }

    private static List<Cell> walked(CellTree.Walk walk) {
        List<Cell> out = new ArrayList<>();
        for (Cell c = walk.next(); c != null; c = walk.next()) {
            out.add(c);
        }
        return out;
    }

    private static byte[] key(int i) {
        return ("t1/" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }

    private static Cell cell(byte[] key) {
        return new Cell(new PointKey(key), new byte[] {1, 2, 3});
    }
}
