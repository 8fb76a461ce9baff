package dev.kumiko.bench;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.AttributeValues;
import dev.kumiko.server.protocol.JsonOut;
import dev.kumiko.server.protocol.RequestBodies;
import java.io.IOException;
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
 * Request decode and response encode in kumiko-server: JSON bytes to the generic tree (JsonTree)
 * and to the server's streamed form (RequestBodies: attribute maps decoded while parsing), and an
 * item back to JSON bytes (JsonOut), for the harness's PutItem and BatchWriteItem bodies.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class JsonBench {
    private byte[][] putBodies;
    private byte[][] batchBodies;
    private Map<String, AttributeValue>[] items;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setup() {
        Fixtures f = new Fixtures(1, 100_000);
        putBodies = Fixtures.bodies(f::putBody);
        batchBodies = Fixtures.bodies(f::batchBody);
        items = new Map[Fixtures.BODIES];
        for (int i = 0; i < Fixtures.BODIES; i++) {
            items[i] = AttributeValues.item(JsonTree.parseObject(putBodies[i], 0, putBodies[i].length), "Item");
        }
    }

    private int nextIndex() {
        next = (next + 1) & (Fixtures.BODIES - 1);
        return next;
    }

    @Benchmark
    public Map<String, Object> parsePutItemBody() {
        byte[] b = putBodies[nextIndex()];
        return JsonTree.parseObject(b, 0, b.length);
    }

    @Benchmark
    public Map<String, Object> parseBatchWriteBody() {
        byte[] b = batchBodies[nextIndex()];
        return JsonTree.parseObject(b, 0, b.length);
    }

    @Benchmark
    public Map<String, Object> streamPutItemBody() {
        byte[] b = putBodies[nextIndex()];
        return RequestBodies.parse("PutItem", b, 0, b.length);
    }

    @Benchmark
    public Map<String, Object> streamBatchWriteBody() {
        byte[] b = batchBodies[nextIndex()];
        return RequestBodies.parse("BatchWriteItem", b, 0, b.length);
    }

    /** GetItem's response body: {"Item": {...}}. */
    @Benchmark
    public byte[] encodeItemResponse() throws IOException {
        try (JsonOut out = new JsonOut()) {
            out.gen().writeStartObject();
            out.gen().writeFieldName("Item");
            JsonOut.item(out.gen(), items[nextIndex()]);
            out.gen().writeEndObject();
            return out.toBytes();
        }
    }
}
