package dev.kumiko.server.fuzz;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.memory.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bounded fuzzing of the request router, the request readers and the engine behind them, in
 * process (fast: no HTTP): mutated corpus requests for every operation go through JsonTree and
 * {@link Operations}, as the HTTP handler sends them. A case passes with a response or a
 * DynamoException of status 4xx; the timeout turns a hang into a failure.
 */
@Tag("slow")
class RouterFuzzTest {
    static final long SEED = 20260102L;
    static final int CASES = FuzzRun.cases(10_000);
    /** Recreate the corpus table this often, in case a mutated DeleteTable or UpdateTable broke it. */
    private static final int TABLE_CHECK_EVERY = 200;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void mutatedRequests() {
        RequestCorpus corpus = new RequestCorpus();
        // The protocol is fuzzed, not the store: a memory store of its own on every suite run, so
        // that the bounded pass spends its time on cases.
        try (Engine engine = Engine.open(new MemoryStore())) {
            Operations operations = new Operations(engine);
            FuzzRun run = new FuzzRun("router", SEED);
            ensureTable(operations);
            for (RequestCorpus.Request saved : corpus.all()) {
                run.check(-1, saved.body(), in -> handle(operations, saved));
            }
            for (int i = 0; i < CASES; i++) {
                if (i % TABLE_CHECK_EVERY == 0) {
                    ensureTable(operations);
                }
                SplittableRandom r = run.random(i);
                RequestCorpus.Request req = corpus.mutated(r);
                byte[] input = (req.operation() + "\n").getBytes(StandardCharsets.UTF_8);
                run.check(i, concat(input, req.body()), in -> handle(operations, req));
            }
            run.finish();
        }
    }

    static void handle(Operations operations, RequestCorpus.Request req) {
        Map<String, Object> body = JsonTree.parseObject(req.body(), 0, req.body().length);
        RequestContext ctx = new RequestContext("us-east-1");
        if (req.streams()) {
            operations.handleStreams(req.operation(), body, ctx);
        } else {
            operations.handle(req.operation(), body, ctx, "localhost");
        }
    }

    static void ensureTable(Operations operations) {
        byte[] create = RequestCorpus.TABLE_JSON.getBytes(StandardCharsets.UTF_8);
        try {
            operations.handle(
                    "CreateTable",
                    JsonTree.parseObject(create, 0, create.length),
                    new RequestContext("us-east-1"),
                    "localhost");
        } catch (DynamoException e) {
            // ResourceInUseException: it is there (perhaps changed by an UpdateTable; fine to fuzz on).
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
