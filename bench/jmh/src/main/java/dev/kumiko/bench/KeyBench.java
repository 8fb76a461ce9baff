package dev.kumiko.bench;

import dev.kumiko.keys.ItemKey;
import dev.kumiko.keys.KeyEncoding;
import dev.kumiko.model.AttributeValue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Storage-key construction: order-preserving encoding of S and N key values, plus the partition hash. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class KeyBench {
    private AttributeValue[] partitionKeys;
    private AttributeValue[] sortKeys;
    private AttributeValue[] numbers;
    private int next;

    @Setup
    public void setup() {
        partitionKeys = new AttributeValue[Fixtures.BODIES];
        sortKeys = new AttributeValue[Fixtures.BODIES];
        numbers = new AttributeValue[Fixtures.BODIES];
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        for (int i = 0; i < Fixtures.BODIES; i++) {
            partitionKeys[i] = AttributeValue.s(Fixtures.pk(r.nextInt(1000)));
            sortKeys[i] = AttributeValue.s(Fixtures.sk(r.nextInt(100)));
            numbers[i] = AttributeValue.n(r.nextInt(10_000) + "." + r.nextInt(100));
        }
    }

    private int nextIndex() {
        next = (next + 1) & (Fixtures.BODIES - 1);
        return next;
    }

    /** The harness's key: S partition key, S sort key. */
    @Benchmark
    public byte[] itemKeyStringString() {
        int i = nextIndex();
        return ItemKey.of(7, partitionKeys[i], sortKeys[i]);
    }

    @Benchmark
    public byte[] encodeNumber() {
        return KeyEncoding.encode(numbers[nextIndex()]);
    }
}
