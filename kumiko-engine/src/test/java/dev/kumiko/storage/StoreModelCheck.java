package dev.kumiko.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Drives a store and a {@link TreeMap} model with the same random operations and compares every
 * read. Keys are short and drawn from {@link StoreContract#EDGE_BYTES}, so collisions, prefixes
 * and the 0x7F/0x80 boundary come up constantly rather than by luck.
 */
final class StoreModelCheck {
    static final int KEY_LENGTH_MAX = 3;
    static final int VALUE_LENGTH_MAX = 8;
    static final int BATCH_OPS_MAX = 6;
    /** Greater than every key the check generates, so [empty, KEY_SPACE_END) covers them all. */
    static final byte[] KEY_SPACE_END = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

    private static final HexFormat HEX = HexFormat.of();

    private final Store store;
    private final long seed;
    private final SplittableRandom random;
    private final TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.ORDER);
    private int step;

    StoreModelCheck(Store store, long seed) {
        this.store = store;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    void run(int ops) {
        assert ops > 0;
        for (step = 0; step < ops; step++) {
            runOne();
        }
        checkScan(new byte[0], KEY_SPACE_END, false, Integer.MAX_VALUE);
    }

    private void runOne() {
        int dice = random.nextInt(100);
        if (dice < 35) {
            applyBatch(1);
        } else if (dice < 55) {
            applyBatch(1 + random.nextInt(BATCH_OPS_MAX));
        } else if (dice < 60) {
            deleteRange();
        } else if (dice < 75) {
            byte[] key = key();
            assertThat(store.get(key)).as(where("get %s", hex(key))).isEqualTo(model.get(key));
        } else if (dice < 95) {
            byte[][] range = range();
            // A limit stops some scans early, as a paged Query does, to exercise early close.
            int limit = random.nextInt(4) == 0 ? random.nextInt(5) : Integer.MAX_VALUE;
            checkScan(range[0], range[1], random.nextBoolean(), limit);
        } else {
            checkSnapshot();
        }
    }

    private void applyBatch(int ops) {
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < ops; i++) {
            byte[] key = random.nextInt(3) == 0 ? existingOrNewKey() : key();
            if (random.nextInt(4) == 0) {
                batch.delete(key);
            } else {
                batch.put(key, value());
            }
        }
        store.apply(batch);
        for (WriteBatch.Op op : batch.ops()) {
            if (op.isDelete()) {
                model.remove(op.key());
            } else {
                model.put(op.key(), op.value());
            }
        }
    }

    private void deleteRange() {
        byte[][] range = range();
        store.deleteRange(range[0], range[1]);
        model.subMap(range[0], true, range[1], false).clear();
    }

    private void checkScan(byte[] start, byte[] end, boolean reverse, int limit) {
        List<Map.Entry<byte[], byte[]>> actual = new ArrayList<>();
        try (Cursor cursor = store.scan(start, end, reverse)) {
            while (actual.size() < limit && cursor.next()) {
                actual.add(Map.entry(cursor.key().clone(), cursor.value().clone()));
            }
        }
        assertThat(render(actual))
                .as(where("scan [%s, %s) reverse=%s", hex(start), hex(end), reverse))
                .isEqualTo(render(expected(model, start, end, reverse, limit)));
    }

    /** No writes happen while the snapshot is open: the memory store's snapshot blocks them. */
    private void checkSnapshot() {
        byte[] key = existingOrNewKey();
        try (Snapshot snapshot = store.snapshot()) {
            assertThat(snapshot.get(key)).as(where("snapshot get")).isEqualTo(model.get(key));
            List<Map.Entry<byte[], byte[]>> actual = new ArrayList<>();
            try (Cursor cursor = snapshot.scan(new byte[0], KEY_SPACE_END, true)) {
                while (cursor.next()) {
                    actual.add(Map.entry(cursor.key().clone(), cursor.value().clone()));
                }
            }
            assertThat(render(actual))
                    .as(where("snapshot scan"))
                    .isEqualTo(render(expected(model, new byte[0], KEY_SPACE_END, true, Integer.MAX_VALUE)));
        }
    }

    private static List<Map.Entry<byte[], byte[]>> expected(
            TreeMap<byte[], byte[]> model, byte[] start, byte[] end, boolean reverse, int limit) {
        NavigableMap<byte[], byte[]> sub = model.subMap(start, true, end, false);
        List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : (reverse ? sub.descendingMap() : sub).entrySet()) {
            if (out.size() == limit) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    // ---- generators --------------------------------------------------------------------------

    private byte[] key() {
        byte[] key = new byte[1 + random.nextInt(KEY_LENGTH_MAX)];
        for (int i = 0; i < key.length; i++) {
            key[i] = StoreContract.EDGE_BYTES[random.nextInt(StoreContract.EDGE_BYTES.length)];
        }
        return key;
    }

    /** Half the time an existing key, so deletes and overwrites hit something. */
    private byte[] existingOrNewKey() {
        if (model.isEmpty() || random.nextBoolean()) {
            return key();
        }
        byte[] probe = key();
        Map.Entry<byte[], byte[]> near = model.ceilingEntry(probe);
        return (near != null ? near : model.firstEntry()).getKey();
    }

    private byte[] value() {
        byte[] value = new byte[random.nextInt(VALUE_LENGTH_MAX + 1)];
        random.nextBytes(value);
        return value;
    }

    /** A bound pair with start <= end; sometimes empty, sometimes the whole key space. */
    private byte[][] range() {
        byte[] a = random.nextInt(8) == 0 ? new byte[0] : key();
        byte[] b = random.nextInt(8) == 0 ? KEY_SPACE_END : key();
        return Bytes.ORDER.compare(a, b) <= 0 ? new byte[][] {a, b} : new byte[][] {b, a};
    }

    // ---- reporting ---------------------------------------------------------------------------

    @SuppressWarnings("AnnotateFormatMethod") // its callers pass literal formats; the annotation is not a dependency
    private String where(String format, Object... args) {
        return "seed " + seed + " step " + step + ": " + String.format(format, args);
    }

    private static List<String> render(List<Map.Entry<byte[], byte[]>> entries) {
        List<String> out = new ArrayList<>(entries.size());
        for (Map.Entry<byte[], byte[]> e : entries) {
            out.add(hex(e.getKey()) + "=" + hex(e.getValue()));
        }
        return out;
    }

    private static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
