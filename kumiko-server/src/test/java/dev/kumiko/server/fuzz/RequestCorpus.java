package dev.kumiko.server.fuzz;

import dev.kumiko.server.json.JsonTree;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The request corpus (fuzz/corpus/requests/): one valid request per operation and variant, named
 * {@code <Operation>.<n>.json} or {@code Streams-<Operation>.<n>.json}, against the table of
 * {@link #TABLE_JSON}. Mutated requests for the in-process router and the HTTP targets come from here.
 */
final class RequestCorpus {
    /** The table the corpus requests name; recreated by the targets if a mutated request drops it. */
    static final String TABLE_JSON = "{\"TableName\":\"fuzz\",\"AttributeDefinitions\":["
            + "{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
            + "{\"AttributeName\":\"G1\",\"AttributeType\":\"S\"}],\"KeySchema\":["
            + "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
            + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gsi\",\"KeySchema\":[{\"AttributeName\":\"G1\","
            + "\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}],\"BillingMode\":\"PAY_PER_REQUEST\","
            + "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";

    record Request(String operation, boolean streams, byte[] body) {}

    private final List<Request> requests = new ArrayList<>();
    private final TreeMutations trees;

    RequestCorpus() {
        List<byte[]> bodies = new ArrayList<>();
        for (Corpus.Entry e : Corpus.load("requests")) {
            String name = e.name().substring(0, e.name().indexOf('.'));
            boolean streams = name.startsWith("Streams-");
            requests.add(new Request(streams ? name.substring("Streams-".length()) : name, streams, e.bytes()));
            bodies.add(e.bytes());
        }
        trees = new TreeMutations(ParserFuzzTest.dictionary(bodies));
    }

    List<Request> all() {
        return requests;
    }

    /** A request of the corpus, mutated: mostly in structure, sometimes in bytes, sometimes not at all. */
    Request mutated(SplittableRandom r) {
        Request seed = requests.get(r.nextInt(requests.size()));
        byte[] other = requests.get(r.nextInt(requests.size())).body();
        int how = r.nextInt(20);
        byte[] body;
        if (how < 2) {
            body = seed.body();
        } else if (how < 14) {
            body = JsonText.write(trees.mutate(r, JsonTree.parseObject(seed.body(), 0, seed.body().length)));
        } else {
            body = ByteMutations.mutate(r, seed.body(), other);
        }
        String operation = how == 19
                ? List.of("", "putitem", "PutItem ", "Query\u0000", "../Scan", "x".repeat(5000), "CreateBackup")
                        .get(r.nextInt(7))
                : seed.operation();
        return new Request(operation, seed.streams(), body);
    }
}
