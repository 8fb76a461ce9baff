package dev.kumiko.bench;

import dev.kumiko.codec.EncodedItem;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.AttributeValues;
import dev.kumiko.server.protocol.JsonOut;
import dev.kumiko.server.protocol.RequestBodies;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
    private static final int PAGE_ITEMS = 50;
    private byte[][] putBodies;
    private byte[][] batchBodies;
    private Map<String, AttributeValue>[] items;
    /** Query pages of 50 stored items each, as the store hands them to the response writer. */
    private List<List<EncodedItem>> pages;

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
        pages = new ArrayList<>();
        for (int p = 0; p < Fixtures.BODIES / PAGE_ITEMS; p++) {
            List<EncodedItem> page = new ArrayList<>();
            for (int i = 0; i < PAGE_ITEMS; i++) {
                page.add(EncodedItem.of(ItemCodec.encode(items[(p * PAGE_ITEMS + i) % Fixtures.BODIES])));
            }
            pages.add(page);
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

    /** A Query page's body from its 50 stored items, left in the response buffer (no copy out). */
    @Benchmark
    public int encodeQueryPage() throws IOException {
        List<EncodedItem> page = pages.get(nextIndex() % pages.size());
        try (JsonOut out = new JsonOut()) {
            out.gen().writeStartObject();
            out.gen().writeFieldName("Items");
            JsonOut.items(out.gen(), page);
            out.gen().writeEndObject();
            return out.read((bytes, size) -> size);
        }
    }
}
