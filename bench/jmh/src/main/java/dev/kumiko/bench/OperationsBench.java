package dev.kumiko.bench;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.server.protocol.RequestBodies;
import java.nio.file.Path;
import java.util.Map;
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
 * One harness request end to end without HTTP: body bytes parsed as the server parses them
 * (RequestBodies), dispatched by
 * Operations to the engine, response body written. The difference between this and the server's
 * CPU per operation under the load harness is what the transport (Netty, headers, crc32) costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OperationsBench {
    private static final RequestContext CONTEXT = new RequestContext("us-east-1");

    @Param({"memory", "rocksdb"})
    public String store;

    @Param({"100000"})
    public int items;

    private final Path[] dir = new Path[1];
    private Engine engine;
    private Operations operations;
    private byte[][] putBodies;
    private byte[][] getBodies;
    private byte[][] queryBodies;
    private byte[][] updateBodies;
    private byte[][] batchBodies;

    @Setup(Level.Trial)
    public void setup() {
        engine = Engine.open(Stores.open(store, dir));
        operations = new Operations(engine);
        call("CreateTable", Fixtures.utf8(Fixtures.createTableBody()));
        Fixtures f = new Fixtures(6, items);
        for (int n = 0; n < items; n += Fixtures.BATCH_SIZE) {
            call("BatchWriteItem", Fixtures.utf8(f.loadBatchBody(n)));
        }
        putBodies = Fixtures.bodies(f::putBody);
        getBodies = Fixtures.bodies(f::getBody);
        queryBodies = Fixtures.bodies(f::queryBody);
        long[] counter = {0};
        updateBodies = Fixtures.bodies(() -> f.updateBody(++counter[0]));
        batchBodies = Fixtures.bodies(f::batchBody);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
        Stores.deleteTree(dir[0]);
    }

    private byte[] call(String operation, byte[] body) {
        Map<String, Object> parsed = RequestBodies.parse(operation, body, 0, body.length);
        return operations.handle(operation, parsed, CONTEXT, "127.0.0.1");
    }

    @State(Scope.Thread)
    public static class Cycle {
        private int next;

        int next() {
            next = (next + 1) & (Fixtures.BODIES - 1);
            return next;
        }
    }

    @Benchmark
    public byte[] putItem(Cycle c) {
        return call("PutItem", putBodies[c.next()]);
    }

    @Benchmark
    public byte[] getItem(Cycle c) {
        return call("GetItem", getBodies[c.next()]);
    }

    @Benchmark
    public byte[] query50(Cycle c) {
        return call("Query", queryBodies[c.next()]);
    }

    @Benchmark
    public byte[] updateItem(Cycle c) {
        return call("UpdateItem", updateBodies[c.next()]);
    }

    @Benchmark
    public byte[] batchWrite25(Cycle c) {
        return call("BatchWriteItem", batchBodies[c.next()]);
    }
}
