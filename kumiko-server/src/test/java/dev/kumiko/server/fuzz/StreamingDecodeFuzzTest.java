package dev.kumiko.server.fuzz;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.server.protocol.RequestBodies;
import dev.kumiko.storage.memory.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The streaming decoder of the data-plane operations ({@link RequestBodies}) answers exactly what
 * the generic tree answers: the same response bytes, or the same error type and message. Two
 * engines get the same sequence of mutated requests, one through {@link JsonTree}, one through
 * {@link RequestBodies}, and every answer is compared. The seeds add what the request corpus lacks:
 * UpdateItem, the transactions, repeated JSON members, refused values at several depths and
 * malformed JSON after a refused value.
 */
@Tag("slow")
class StreamingDecodeFuzzTest {
    static final long SEED = 20260103L;
    static final int CASES = FuzzRun.cases(8_000);

    private static final Set<String> STREAMED = Set.of(
            "PutItem",
            "GetItem",
            "UpdateItem",
            "DeleteItem",
            "Query",
            "Scan",
            "BatchWriteItem",
            "BatchGetItem",
            "TransactWriteItems",
            "TransactGetItems");

    private static final List<RequestCorpus.Request> EXTRA = List.of(
            request(
                    "UpdateItem",
                    "{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"S\":\"p1\"},\"SK\":{\"S\":\"s1\"}},"
                            + "\"UpdateExpression\":\"ADD cnt :one SET t = :t\",\"ConditionExpression\":\"attribute_exists(PK)\","
                            + "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":t\":{\"S\":\"now\"}},"
                            + "\"ReturnValues\":\"UPDATED_NEW\"}"),
            request(
                    "TransactWriteItems",
                    "{\"TransactItems\":[{\"Put\":{\"TableName\":\"fuzz\",\"Item\":{\"PK\":{\"S\":\"t1\"},"
                            + "\"SK\":{\"S\":\"1\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"M\":{\"a\":{\"BOOL\":true}}}]}}}},"
                            + "{\"Update\":{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"S\":\"t2\"},\"SK\":{\"S\":\"1\"}},"
                            + "\"UpdateExpression\":\"SET v = :v\",\"ExpressionAttributeValues\":{\":v\":{\"NS\":[\"1\",\"2\"]}}}},"
                            + "{\"ConditionCheck\":{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"S\":\"p1\"},\"SK\":{\"S\":\"s1\"}},"
                            + "\"ConditionExpression\":\"attribute_not_exists(z) OR z = :z\","
                            + "\"ExpressionAttributeValues\":{\":z\":{\"B\":\"AAE=\"}}}},"
                            + "{\"Delete\":{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"S\":\"t3\"},\"SK\":{\"S\":\"1\"}}}}]}"),
            request(
                    "TransactGetItems",
                    "{\"TransactItems\":[{\"Get\":{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"S\":\"t1\"},"
                            + "\"SK\":{\"S\":\"1\"}}}},{\"Get\":{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"S\":\"p1\"},"
                            + "\"SK\":{\"S\":\"s1\"}}}}]}"),
            request(
                    "PutItem",
                    "{\"TableName\":\"fuzz\",\"Item\":{\"PK\":{\"S\":\"d\",\"S\":\"e\"},\"SK\":{\"S\":\"1\"},"
                            + "\"a\":{\"S\":\"x\",\"N\":\"1\",\"N\":null},\"b\":{\"N\":\"bad\"},\"b\":{\"N\":\"2\"},"
                            + "\"c\":{\"X\":[[{}]],\"NULL\":true}}}"),
            request(
                    "PutItem",
                    "{\"Item\":{\"PK\":{\"S\":\"d\"},\"SK\":{\"S\":\"1\"},\"x\":{\"B\":\"AAE\"}},"
                            + "\"TableName\":\"fuzz\",\"ConditionExpression\":\"a = :a\","
                            + "\"ExpressionAttributeValues\":{\":a\":{\"N\":\"1e999\"}},\"Expected\":{}}"),
            request(
                    "GetItem",
                    "{\"Key\":{\"PK\":{\"M\":{\"a\":{\"L\":[{\"SS\":[]},{\"S\":1}]}}},\"SK\":[]},"
                            + "\"TableName\":\"fuzz\"}"),
            request(
                    "DeleteItem",
                    "{\"TableName\":\"fuzz\",\"Key\":{\"PK\":{\"NULL\":false}},\"Key\":{\"PK\":{\"S\":\"p\"},"
                            + "\"SK\":{\"S\":\"s\"}},\"ReturnValues\":\"ALL_OLD\"}"),
            request(
                    "BatchWriteItem",
                    "{\"RequestItems\":{\"fuzz\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"q\"},"
                            + "\"SK\":{\"S\":\"1\"},\"v\":{\"BOOL\":\"yes\"}}},\"DeleteRequest\":{\"Key\":{\"PK\":{\"S\":\"q\"}}}},"
                            + "{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"q\"},\"SK\":{\"S\":\"2\"},\"m\":{\"M\":{\"n\":"
                            + "{\"M\":{\"o\":{\"BS\":[\"AA==\",\"AA==\"]}}}}}}}}]}}"),
            request(
                    "BatchWriteItem",
                    "{\"RequestItems\":{\"fuzz\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"N\":\"x\"}}}}]},"
                            + "\"ReturnConsumedCapacity\":\"NONE\""),
            request(
                    "Query",
                    "{\"TableName\":\"fuzz\",\"KeyConditionExpression\":\"PK = :p\","
                            + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p1\"},\":q\":{\"L\":["
                            + "{\"L\":[".repeat(33)
                            + "{\"S\":\"deep\"}" + "]}".repeat(33)
                            + "]}},\"ExclusiveStartKey\":{\"PK\":{\"S\":\"p1\"}}}"));

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void streamedBodiesAnswerAsTrees() {
        RequestCorpus corpus = new RequestCorpus();
        List<RequestCorpus.Request> seeds = new ArrayList<>(EXTRA);
        corpus.all().stream()
                .filter(q -> !q.streams() && STREAMED.contains(q.operation()))
                .forEach(seeds::add);
        List<byte[]> bodies = new ArrayList<>();
        seeds.forEach(q -> bodies.add(q.body()));
        TreeMutations trees = new TreeMutations(ParserFuzzTest.dictionary(bodiesParsable(bodies)));
        // The two decoders are compared, not the store: memory stores of their own on every suite run.
        try (Engine treeEngine = Engine.open(new MemoryStore());
                Engine streamEngine = Engine.open(new MemoryStore())) {
            Operations viaTree = new Operations(treeEngine);
            Operations viaStream = new Operations(streamEngine);
            RouterFuzzTest.ensureTable(viaTree);
            RouterFuzzTest.ensureTable(viaStream);
            FuzzRun run = new FuzzRun("streaming-decode", SEED);
            for (RequestCorpus.Request seed : seeds) {
                run.check(-1, seed.body(), in -> compare(viaTree, viaStream, seed.operation(), in));
            }
            for (int i = 0; i < CASES; i++) {
                SplittableRandom r = run.random(i);
                RequestCorpus.Request seed = seeds.get(r.nextInt(seeds.size()));
                byte[] body = mutate(
                        r, seed.body(), seeds.get(r.nextInt(seeds.size())).body(), trees);
                run.check(i, body, in -> compare(viaTree, viaStream, seed.operation(), in));
            }
            run.finish();
        }
    }

    private static byte[] mutate(SplittableRandom r, byte[] seed, byte[] other, TreeMutations trees) {
        int how = r.nextInt(10);
        if (how < 6) {
            try {
                return JsonText.write(trees.mutate(r, JsonTree.parseObject(seed, 0, seed.length)));
            } catch (DynamoException e) {
                // a seed that is malformed on purpose: mutate its bytes instead
            }
        }
        return ByteMutations.mutate(r, seed, other);
    }

    private static void compare(Operations viaTree, Operations viaStream, String operation, byte[] body) {
        String tree = outcome(viaTree, operation, () -> JsonTree.parseObject(body, 0, body.length));
        String stream = outcome(viaStream, operation, () -> RequestBodies.parse(operation, body, 0, body.length));
        if (!tree.equals(stream)) {
            throw new AssertionError(operation + ": tree answered\n  " + tree + "\nstream answered\n  " + stream);
        }
    }

    private static String outcome(Operations operations, String operation, Supplier<Map<String, Object>> body) {
        try {
            byte[] answer = operations.handle(operation, body.get(), new RequestContext("us-east-1"), "localhost");
            return "200 " + new String(answer, StandardCharsets.UTF_8);
        } catch (DynamoException e) {
            return e.code() + " " + e.getMessage();
        }
    }

    private static List<byte[]> bodiesParsable(List<byte[]> bodies) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] b : bodies) {
            try {
                JsonTree.parseObject(b, 0, b.length);
                out.add(b);
            } catch (DynamoException e) {
                // left out of the mutation dictionary
            }
        }
        return out;
    }

    private static RequestCorpus.Request request(String operation, String json) {
        return new RequestCorpus.Request(operation, false, json.getBytes(StandardCharsets.UTF_8));
    }
}
