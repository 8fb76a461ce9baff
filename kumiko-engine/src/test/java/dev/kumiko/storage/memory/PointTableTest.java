package dev.kumiko.storage.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The memory store's point table against a HashMap: adds, removes (tombstones) and rebuilds in a
 * seeded random order, keys whose hashes collide, and readers that run while the writer rebuilds.
 */
class PointTableTest {
    private static final int KEY_SPACE = 5_000;
    private static final int OPERATIONS = 60_000;

    @Test
    void randomAddsAndRemovesAgreeWithAHashMap() {
        Random random = new Random(42);
        PointTable table = new PointTable();
        Map<ByteBuffer, Cell> model = new HashMap<>();
        for (int op = 0; op < OPERATIONS; op++) {
            byte[] key = key(random.nextInt(KEY_SPACE));
            Cell held = model.get(ByteBuffer.wrap(key));
            if (held == null) {
                Cell cell = cell(key);
                table.add(cell);
                model.put(ByteBuffer.wrap(key), cell);
            } else if (random.nextBoolean()) {
                table.remove(held);
                model.remove(ByteBuffer.wrap(key));
            }
            if (op % 1_000 == 0) {
                checkAgainst(model, table);
            }
        }
        checkAgainst(model, table);
        assertEquals(model.size(), table.size());
    }

    @Test
    void keysWithTheSameHashAreToldApart() {
        // [0, 31] and [1, 0] have the same Arrays.hashCode: 31 * (31 + 0) + 31 = 31 * (31 + 1) + 0.
        byte[] a = {0, 31};
        byte[] b = {1, 0};
        assertEquals(new PointKey(a).hash(), new PointKey(b).hash());
        PointTable table = new PointTable();
        Cell ca = cell(a);
        Cell cb = cell(b);
        table.add(ca);
        table.add(cb);
        assertSame(ca, table.get(new PointKey(a.clone())));
        assertSame(cb, table.get(new PointKey(b.clone())));
        Cell[] both = new Cell[2];
        // b's home slot holds a, whose hash is b's too: only the key bytes tell them apart.
        table.getAll(new PointKey[] {new PointKey(b.clone()), new PointKey(a.clone())}, both);
        assertArrayEquals(new Cell[] {cb, ca}, both);
        table.remove(ca);
        assertNull(table.get(new PointKey(a)));
        assertSame(cb, table.get(new PointKey(b)), "found past the tombstone of the key before it");
        Cell[] found = new Cell[2];
        table.getAll(new PointKey[] {new PointKey(b), new PointKey(a)}, found);
        assertArrayEquals(new Cell[] {cb, null}, found);
    }

    @Test
    void theTableGrowsAndDropsItsTombstones() {
        PointTable table = new PointTable();
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < PointTable.CAPACITY_MIN; i++) {
            Cell c = cell(key(i));
            table.add(c);
            cells.add(c);
        }
        assertTrue(table.capacity() >= 2 * PointTable.CAPACITY_MIN, "grown: " + table.capacity());
        int grown = table.capacity();
        // Removing and adding the same number of keys again and again rebuilds without growing.
        for (int round = 0; round < 20; round++) {
            for (Cell c : cells) {
                table.remove(c);
            }
            cells.clear();
            for (int i = 0; i < PointTable.CAPACITY_MIN; i++) {
                Cell c = cell(key(round * PointTable.CAPACITY_MIN + i));
                table.add(c);
                cells.add(c);
            }
        }
        assertEquals(grown, table.capacity());
        for (Cell c : cells) {
            assertSame(c, table.get(new PointKey(c.key())));
        }
    }

    /**
     * Keys that stay in the table are found by every read while one writer adds and removes others,
     * growing and rebuilding the table under the readers.
     */
    @Test
    void readersAlwaysFindTheKeysThatStayWhileTheTableIsRebuilt() throws InterruptedException {
        PointTable table = new PointTable();
        int stay = 500;
        Cell[] staying = new Cell[stay];
        PointKey[] probes = new PointKey[stay];
        for (int i = 0; i < stay; i++) {
            staying[i] = cell(key(i));
            probes[i] = new PointKey(key(i));
            table.add(staying[i]);
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Thread t = new Thread(() -> {
                Cell[] found = new Cell[stay];
                while (!done.get() && failure.get() == null) {
                    table.getAll(probes, found);
                    for (int i = 0; i < stay; i++) {
                        if (found[i] != staying[i] || table.get(probes[i]) != staying[i]) {
                            failure.compareAndSet(null, "key " + i + " not found");
                        }
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        List<Cell> churn = new ArrayList<>();
        Random random = new Random(7);
        for (int op = 0; op < 200_000 && failure.get() == null; op++) {
            if (churn.size() < 20_000 && (churn.isEmpty() || random.nextInt(3) > 0)) {
                Cell c = cell(key(stay + op));
                table.add(c);
                churn.add(c);
            } else {
                table.remove(churn.remove(churn.size() - 1));
            }
        }
        done.set(true);
        for (Thread t : readers) {
            t.join();
        }
        assertNull(failure.get());
        assertEquals(stay + churn.size(), table.size());
    }

    private static void checkAgainst(Map<ByteBuffer, Cell> model, PointTable table) {
        PointKey[] probes = new PointKey[KEY_SPACE];
        for (int i = 0; i < KEY_SPACE; i++) {
            probes[i] = new PointKey(key(i));
        }
        Cell[] found = new Cell[KEY_SPACE];
        table.getAll(probes, found);
        for (int i = 0; i < KEY_SPACE; i++) {
            Cell expected = model.get(ByteBuffer.wrap(key(i)));
            assertSame(expected, table.get(probes[i]), "get of key " + i);
            assertSame(expected, found[i], "getAll of key " + i);
        }
    }

    private static byte[] key(int i) {
        return ("t1/p#" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static Cell cell(byte[] key) {
        return new Cell(new PointKey(key), new byte[] {1, 2, 3});
    }
}
