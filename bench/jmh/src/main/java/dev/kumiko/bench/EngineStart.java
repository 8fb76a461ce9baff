package dev.kumiko.bench;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.Operations;

/**
 * Cold start of the embedded engine, as a JVM test that embeds Kumiko pays it: run once per fresh
 * JVM (bench/run-harness.sh starts several). Prints one JSON line: the time Engine.inMemory()
 * takes with no engine class loaded yet, and the time to a first CreateTable + PutItem + GetItem
 * through the request path (what a test's first call costs on top). With --jdk-warmup it first
 * uses the JDK facilities a JUnit JVM has already started, as a test that embeds Kumiko sees it.
 */
public final class EngineStart {
    private EngineStart() {}

    public static void main(String[] args) {
        if (java.util.Arrays.asList(args).contains("--jdk-warmup")) {
            warmUpJdk();
        }
        long t0 = System.nanoTime();
        Engine engine = Engine.inMemory();
        long t1 = System.nanoTime();
        Operations ops = new Operations(engine);
        RequestContext ctx = new RequestContext("us-east-1");
        call(ops, ctx, "CreateTable", Fixtures.createTableBody());
        Fixtures f = new Fixtures(7, 100);
        call(ops, ctx, "PutItem", "{\"TableName\":\"bench\",\"Item\":" + f.itemJson(0, 0) + "}");
        byte[] got = call(
                ops,
                ctx,
                "GetItem",
                "{\"TableName\":\"bench\",\"Key\":{\"PK\":{\"S\":\"p#000000\"},\"SK\":{\"S\":\"o#000\"}}}");
        long t2 = System.nanoTime();
        if (got.length < 100) {
            throw new IllegalStateException("GetItem did not return the item: " + new String(got));
        }
        engine.close();
        System.out.printf("{\"engine_open_ms\":%.2f,\"first_requests_ms\":%.2f}%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6);
    }

    /**
     * What a JUnit 5 launcher has already used before a test body runs (lambdas, streams, logging,
     * java.time, an executor), so that the figure is the engine's own share of a test's start.
     */
    static void warmUpJdk() {
        Runnable lambda = () -> {};
        lambda.run();
        java.util.List.of(1, 2, 3).stream().map(x -> x + 1).forEach(x -> {});
        java.util.logging.Logger.getLogger("warmup").fine("warm-up");
        System.getLogger("warmup").log(System.Logger.Level.TRACE, "warm-up");
        java.time.format.DateTimeFormatter.ISO_INSTANT.format(java.time.Instant.now());
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor().shutdown();
    }

    private static byte[] call(Operations ops, RequestContext ctx, String op, String body) {
        byte[] b = Fixtures.utf8(body);
        return ops.handle(op, JsonTree.parseObject(b, 0, b.length), ctx, "localhost");
    }
}
