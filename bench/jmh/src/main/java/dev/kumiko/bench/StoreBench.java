package dev.kumiko.bench;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.AttributeValues;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The storage seam alone: point get, single-key put (one-op batch, as PutItem commits) and a
 * 50-key range scan (a Query page), over the harness's key layout preloaded with encoded items.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StoreBench {
    private static final int TABLE_ID = 1;
    private static final int SCAN_ROWS = 50;

    @Param({"memory", "rocksdb"})
    public String store;

    @Param({"100000"})
    public int items;

    private final Path[] dir = new Path[1];
    private Store s;
    private byte[][] keys;
    private byte[][] partitionPrefixes;
    private byte[][] values;

    @Setup(Level.Trial)
    public void setup() {
        s = Stores.open(store, dir);
        Fixtures f = new Fixtures(5, items);
        keys = new byte[items][];
        partitionPrefixes = new byte[f.partitions()][];
        values = new byte[Fixtures.BODIES][];
        for (int i = 0; i < Fixtures.BODIES; i++) {
            byte[] json = Fixtures.utf8(f.randomItemJson());
            values[i] = ItemCodec.encode(AttributeValues.decodeMap(JsonTree.parseObject(json, 0, json.length), 0));
        }
        WriteBatch batch = new WriteBatch();
        for (int n = 0; n < items; n++) {
            int p = n / Fixtures.ITEMS_PER_PARTITION;
            AttributeValue pk = AttributeValue.s(Fixtures.pk(p));
            keys[n] = ItemKey.of(TABLE_ID, pk, AttributeValue.s(Fixtures.sk(n % Fixtures.ITEMS_PER_PARTITION)));
            partitionPrefixes[p] = ItemKey.partitionPrefix(TABLE_ID, pk);
            batch.put(keys[n], values[n & (Fixtures.BODIES - 1)]);
            if (batch.size() == 1000) {
                s.apply(batch);
                batch = new WriteBatch();
            }
        }
        if (!batch.isEmpty()) {
            s.apply(batch);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        s.close();
        Stores.deleteTree(dir[0]);
    }

    /** Per-thread key choice, so that threads do not share a random generator. */
    @State(Scope.Thread)
    public static class Picker {
        private final SplittableRandom random =
                new SplittableRandom(Thread.currentThread().getId());

        int next(int bound) {
            return random.nextInt(bound);
        }
    }

    @Benchmark
    public byte[] get(Picker pick) {
        return s.get(keys[pick.next(items)]);
    }

    @Benchmark
    public void put(Picker pick) {
        s.apply(new WriteBatch().put(keys[pick.next(items)], values[pick.next(Fixtures.BODIES)]));
    }

    /** The first 50 rows of a random partition; returns the bytes read so none are dead code. */
    @Benchmark
    public long scan50(Picker pick) {
        byte[] prefix = partitionPrefixes[pick.next(partitionPrefixes.length)];
        long bytes = 0;
        try (Cursor c = s.scan(prefix, dev.kumiko.storage.Bytes.prefixEnd(prefix), false)) {
            for (int i = 0; i < SCAN_ROWS && c.next(); i++) {
                bytes += c.key().length + c.value().length;
            }
        }
        return bytes;
    }
}
