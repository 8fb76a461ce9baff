package dev.kumiko.bench;

import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.storage.WriteBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Group commit on RocksStore: one-key puts (a PutItem's batch is about this size) from as many
 * threads as JMH's -t gives, with --durability process (WAL written, no fsync) or fsync. Run
 * with -t 1, -t 4 (the server's event loops on 2 cores) and -t 32; the tear-down prints how many
 * writes shared one WAL fsync. Results: docs/durability.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class GroupCommitBench {
    /** About a small item's encoded size. */
    private static final int VALUE_BYTES = 200;

    @Param({"process", "fsync"})
    public String durability;

    private Path dir;
    private RocksStore store;
    private RocksStore.WalCounters start;
    private final AtomicLong nextKey = new AtomicLong();
    private final byte[] value = new byte[VALUE_BYTES];

    @Setup(Level.Trial)
    public void setup() {
        try {
            dir = Files.createTempDirectory("kumiko-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        store = RocksStore.open(dir, RocksStoreOptions.defaults().withFsync("fsync".equals(durability)));
        start = store.walCounters();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        RocksStore.WalCounters end = store.walCounters();
        long writes = end.writes() - start.writes();
        long syncs = end.syncs() - start.syncs();
        System.out.printf(
                "%n%s: %d writes, %d WAL fsyncs, %.1f writes per fsync%n",
                durability, writes, syncs, syncs == 0 ? 0.0 : (double) writes / syncs);
        store.close();
        Stores.deleteTree(dir);
    }

    @Benchmark
    public void put() {
        byte[] key = ByteBuffer.allocate(Long.BYTES)
                .putLong(nextKey.getAndIncrement())
                .array();
        store.apply(new WriteBatch().put(key, value));
    }
}
