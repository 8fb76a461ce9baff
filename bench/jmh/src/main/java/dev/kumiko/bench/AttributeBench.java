package dev.kumiko.bench;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.ItemSize;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.AttributeValues;
import java.util.Map;
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

/**
 * Per-item work of every write: wire AttributeValue decoding with DynamoDB's validation, the 400 KB
 * item-size rule, and the binary item codec the stores hold.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AttributeBench {
    private Map<String, Object>[] rawItems;
    private Map<String, AttributeValue>[] items;
    private byte[][] encoded;
    private String[] numberTexts;
    private DynamoNumber[] numbers;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setup() {
        Fixtures f = new Fixtures(2, 100_000);
        rawItems = new Map[Fixtures.BODIES];
        items = new Map[Fixtures.BODIES];
        encoded = new byte[Fixtures.BODIES][];
        numberTexts = new String[Fixtures.BODIES];
        numbers = new DynamoNumber[Fixtures.BODIES];
        for (int i = 0; i < Fixtures.BODIES; i++) {
            byte[] json = Fixtures.utf8(f.randomItemJson());
            rawItems[i] = JsonTree.parseObject(json, 0, json.length);
            items[i] = AttributeValues.decodeMap(rawItems[i], 0);
            encoded[i] = ItemCodec.encode(items[i]);
            numberTexts[i] = ((AttributeValue.N) items[i].get("price")).value().toString();
            numbers[i] = DynamoNumber.parse(numberTexts[i]);
        }
    }

    private int nextIndex() {
        next = (next + 1) & (Fixtures.BODIES - 1);
        return next;
    }

    @Benchmark
    public Map<String, AttributeValue> decodeAndValidateItem() {
        return AttributeValues.decodeMap(rawItems[nextIndex()], 0);
    }

    /** Every N attribute is parsed on decode (wire and store) and printed on encode. */
    @Benchmark
    public DynamoNumber numberParse() {
        return DynamoNumber.parse(numberTexts[nextIndex()]);
    }

    @Benchmark
    public String numberToString() {
        return numbers[nextIndex()].toString();
    }

    @Benchmark
    public long itemSize() {
        return ItemSize.of(items[nextIndex()]);
    }

    @Benchmark
    public byte[] codecEncode() {
        return ItemCodec.encode(items[nextIndex()]);
    }

    @Benchmark
    public Map<String, AttributeValue> codecDecode() {
        return ItemCodec.decode(encoded[nextIndex()]);
    }
}
