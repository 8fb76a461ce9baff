package dev.kumiko.server.vector;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SearchResultItem;
import software.amazon.awssdk.services.dynamodb.model.SearchSchemaElementType;
import software.amazon.awssdk.services.dynamodb.model.SearchVectorsResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;
import software.amazon.awssdk.services.dynamodb.model.VectorIndex;
import software.amazon.awssdk.services.dynamodb.model.VectorIndexDescription;

/**
 * Vector indexes and SearchVectors through the AWS SDK, on the memory store and RocksDB: each
 * distance function against an exact ranking computed here, a filter and a projection, the write
 * path (update, delete), a backfilled index, a deleted one, a restart, and the errors.
 */
class VectorSearchTest {
    private static final int DIMENSIONS = 8;
    private static final int ITEMS = 60;
    /** A bound on waiting for a backfill, not a timing assertion. */
    private static final Duration BACKFILL_WAIT_MAX = Duration.ofSeconds(60);

    /** A small embedding set: seeded, so every run and every store sees the same vectors. */
    static float[] vector(int i) {
        Random r = new Random(1000L + i);
        float[] v = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            v[d] = (float) r.nextGaussian();
        }
        return v;
    }

    static AttributeValue list(float[] v) {
        List<AttributeValue> out = new ArrayList<>(v.length);
        for (float f : v) {
            out.add(AttributeValue.fromN(Float.toString(f)));
        }
        return AttributeValue.fromL(out);
    }

    static List<AttributeValue> query(float[] v) {
        return list(v).l();
    }

    static VectorIndex index(String name, VectorDistanceFunction f, ProjectionType projection) {
        return VectorIndex.builder()
                .indexName(name)
                .vectorAttribute(a -> a.attributeName("emb"))
                .dimensions((long) DIMENSIONS)
                .distanceFunction(f)
                .searchSchema(
                        s -> s.attributeName("category").searchSchemaElementType(SearchSchemaElementType.INLINE_FILTER))
                .projection(p -> p.projectionType(projection))
                .build();
    }

    static void createTable(DynamoDbClient c, String table, VectorIndex... indexes) {
        c.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .vectorIndexes(indexes));
    }

    static void putItems(DynamoDbClient c, String table) {
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("id", AttributeValue.fromS("i" + i));
            item.put("emb", list(vector(i)));
            item.put("category", AttributeValue.fromS(i % 3 == 0 ? "red" : "blue"));
            item.put("payload", AttributeValue.fromS("p" + i));
            c.putItem(b -> b.tableName(table).item(item));
        }
    }

    /** The ids of the k items nearest to q by f, computed exactly here in double precision. */
    static List<String> expected(float[] q, VectorDistanceFunction f, int k, java.util.function.IntPredicate keep) {
        List<double[]> scored = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            if (keep.test(i)) {
                scored.add(new double[] {i, score(q, vector(i), f)});
            }
        }
        Comparator<double[]> order = Comparator.comparingDouble(x -> x[1]);
        scored.sort(f == VectorDistanceFunction.DOT_PRODUCT ? order.reversed() : order);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(k, scored.size()); i++) {
            out.add("i" + (int) scored.get(i)[0]);
        }
        return out;
    }

    static double score(float[] q, float[] v, VectorDistanceFunction f) {
        double dot = 0, nq = 0, nv = 0, sq = 0;
        for (int i = 0; i < q.length; i++) {
            dot += q[i] * v[i];
            nq += q[i] * q[i];
            nv += v[i] * v[i];
            sq += (q[i] - v[i]) * (q[i] - v[i]);
        }
        return switch (f) {
            case COSINE -> 1 - dot / Math.sqrt(nq * nv);
            case EUCLIDEAN -> Math.sqrt(sq);
            default -> dot;
        };
    }

    static List<String> ids(SearchVectorsResponse r) {
        List<String> out = new ArrayList<>();
        for (SearchResultItem x : r.searchResults()) {
            out.add(x.item().get("id").s());
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = TestServer.StoreKind.class,
            names = {"MEMORY", "ROCKSDB"})
    void searchesWithEachDistanceFunctionAFilterAndAProjection(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            createTable(
                    c,
                    "docs",
                    index("byCosine", VectorDistanceFunction.COSINE, ProjectionType.ALL),
                    index("byEuclid", VectorDistanceFunction.EUCLIDEAN, ProjectionType.KEYS_ONLY),
                    index("byDot", VectorDistanceFunction.DOT_PRODUCT, ProjectionType.ALL));
            putItems(c, "docs");
            float[] q = vector(5000);
            for (String[] pair :
                    new String[][] {{"byCosine", "COSINE"}, {"byEuclid", "EUCLIDEAN"}, {"byDot", "DOT_PRODUCT"}}) {
                VectorDistanceFunction f = VectorDistanceFunction.fromValue(pair[1]);
                SearchVectorsResponse r = c.searchVectors(b -> b.tableName("docs")
                        .indexName(pair[0])
                        .searchVector(query(q))
                        .topK(5));
                assertThat(ids(r)).as(pair[1]).isEqualTo(expected(q, f, 5, i -> true));
                for (SearchResultItem x : r.searchResults()) {
                    int i = Integer.parseInt(x.item().get("id").s().substring(1));
                    assertThat(x.score())
                            .as(pair[1] + " score")
                            .isCloseTo(score(q, vector(i), f), org.assertj.core.data.Offset.offset(1e-4));
                }
            }
            // KEYS_ONLY: the key and the SearchSchema attributes; neither the vector nor the payload.
            SearchVectorsResponse keysOnly = c.searchVectors(b -> b.tableName("docs")
                    .indexName("byEuclid")
                    .searchVector(query(q))
                    .topK(1));
            assertThat(keysOnly.searchResults().get(0).item()).containsOnlyKeys("id", "category");

            SearchVectorsResponse filtered = c.searchVectors(b -> b.tableName("docs")
                    .indexName("byCosine")
                    .searchVector(query(q))
                    .topK(4)
                    .searchConditionExpression("#c = :c")
                    .projectionExpression("id, payload")
                    .expressionAttributeNames(Map.of("#c", "category"))
                    .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("red")))
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
            assertThat(ids(filtered)).isEqualTo(expected(q, VectorDistanceFunction.COSINE, 4, i -> i % 3 == 0));
            assertThat(filtered.searchResults().get(0).item()).containsOnlyKeys("id", "payload");
            assertThat(filtered.consumedCapacity().vectorSearchRequestBytes()).isEqualTo(4.0 * DIMENSIONS);

            TableDescription described =
                    c.describeTable(b -> b.tableName("docs")).table();
            assertThat(described.vectorIndexes())
                    .extracting(VectorIndexDescription::indexName)
                    .containsExactly("byCosine", "byDot", "byEuclid");
            VectorIndexDescription cos = described.vectorIndexes().get(0);
            assertThat(cos.indexStatusAsString()).isEqualTo("ACTIVE");
            assertThat(cos.dimensions()).isEqualTo(DIMENSIONS);
            assertThat(cos.distanceFunction()).isEqualTo(VectorDistanceFunction.COSINE);
            assertThat(cos.vectorAttribute().attributeName()).isEqualTo("emb");
            assertThat(cos.itemCount()).isEqualTo(ITEMS);
            assertThat(cos.indexArn()).endsWith(":table/docs/index/byCosine");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = TestServer.StoreKind.class,
            names = {"MEMORY", "ROCKSDB"})
    void everyWritePathReachesTheIndex(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            createTable(c, "docs", index("byCosine", VectorDistanceFunction.COSINE, ProjectionType.ALL));
            putItems(c, "docs");
            float[] q = vector(7);
            assertThat(ids(search(c, "byCosine", q, 1))).containsExactly("i7");
            c.deleteItem(b -> b.tableName("docs").key(Map.of("id", AttributeValue.fromS("i7"))));
            assertThat(ids(search(c, "byCosine", q, 3))).doesNotContain("i7");
            // An update moves i8's vector onto the query: it becomes the nearest.
            c.updateItem(b -> b.tableName("docs")
                    .key(Map.of("id", AttributeValue.fromS("i8")))
                    .updateExpression("SET emb = :v")
                    .expressionAttributeValues(Map.of(":v", list(q))));
            assertThat(ids(search(c, "byCosine", q, 1))).containsExactly("i8");
            // A vector of the wrong length, or one that is not numbers, takes the item out of the index.
            c.updateItem(b -> b.tableName("docs")
                    .key(Map.of("id", AttributeValue.fromS("i8")))
                    .updateExpression("SET emb = :v")
                    .expressionAttributeValues(Map.of(":v", AttributeValue.fromL(List.of(AttributeValue.fromN("1"))))));
            assertThat(ids(search(c, "byCosine", q, 5))).doesNotContain("i8");
            c.batchWriteItem(b -> b.requestItems(Map.of(
                    "docs",
                    List.of(software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                            .putRequest(p -> p.item(Map.of("id", AttributeValue.fromS("batch"), "emb", list(q))))
                            .build()))));
            c.transactWriteItems(b -> b.transactItems(t ->
                    t.put(p -> p.tableName("docs").item(Map.of("id", AttributeValue.fromS("txn"), "emb", list(q))))));
            assertThat(ids(search(c, "byCosine", q, 2))).containsExactlyInAnyOrder("batch", "txn");
        }
    }

    static SearchVectorsResponse search(DynamoDbClient c, String index, float[] q, int k) {
        return c.searchVectors(
                b -> b.tableName("docs").indexName(index).searchVector(query(q)).topK(k));
    }

    @ParameterizedTest
    @EnumSource(
            value = TestServer.StoreKind.class,
            names = {"MEMORY", "ROCKSDB"})
    void anIndexAddedToATableWithItemsIsBackfilledAndCanBeDeleted(TestServer.StoreKind kind) throws Exception {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            createTable(c, "docs");
            putItems(c, "docs");
            TableDescription updated = c.updateTable(b -> b.tableName("docs")
                            .vectorIndexUpdates(u -> u.create(x -> x.indexName("late")
                                    .vectorAttribute(a -> a.attributeName("emb"))
                                    .dimensions((long) DIMENSIONS)
                                    .distanceFunction(VectorDistanceFunction.EUCLIDEAN)
                                    .projection(p -> p.projectionType(ProjectionType.ALL)))))
                    .tableDescription();
            assertThat(updated.vectorIndexes())
                    .extracting(VectorIndexDescription::indexName)
                    .containsExactly("late");
            awaitActive(c, "late");
            float[] q = vector(9000);
            assertThat(ids(search(c, "late", q, 5)))
                    .isEqualTo(expected(q, VectorDistanceFunction.EUCLIDEAN, 5, i -> true));
            if (kind == TestServer.StoreKind.ROCKSDB) {
                server.restart();
                c = server.client();
                assertThat(ids(search(c, "late", q, 5)))
                        .isEqualTo(expected(q, VectorDistanceFunction.EUCLIDEAN, 5, i -> true));
            }
            DynamoDbClient client = c;
            client.updateTable(b -> b.tableName("docs").vectorIndexUpdates(u -> u.delete(d -> d.indexName("late"))));
            assertThat(client.describeTable(b -> b.tableName("docs")).table().vectorIndexes())
                    .isEmpty();
            assertValidation(() -> search(client, "late", q, 5), "The table does not have the specified index: late");
        }
    }

    @Test
    void aRestoredTableHasItsSourcesVectorIndexes() throws Exception {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createTable(c, "docs", index("byCosine", VectorDistanceFunction.COSINE, ProjectionType.ALL));
            putItems(c, "docs");
            String backupArn = c.createBackup(b -> b.tableName("docs").backupName("nightly"))
                    .backupDetails()
                    .backupArn();
            c.restoreTableFromBackup(b -> b.backupArn(backupArn).targetTableName("copy"));
            long deadline = System.nanoTime() + BACKFILL_WAIT_MAX.toNanos();
            while (!"ACTIVE"
                    .equals(c.describeTable(b -> b.tableName("copy")).table().tableStatusAsString())) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the restore did not finish");
                }
                Thread.sleep(20);
            }
            assertThat(c.describeTable(b -> b.tableName("copy")).table().vectorIndexes())
                    .extracting(VectorIndexDescription::indexName)
                    .containsExactly("byCosine");
            float[] q = vector(4242);
            SearchVectorsResponse r = c.searchVectors(b -> b.tableName("copy")
                    .indexName("byCosine")
                    .searchVector(query(q))
                    .topK(5));
            assertThat(ids(r)).isEqualTo(expected(q, VectorDistanceFunction.COSINE, 5, i -> true));
        }
    }

    @Test
    void aHashSearchSchemaElementKeepsOnlyItemsThatHaveIt() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createTable(
                    c,
                    "docs",
                    VectorIndex.builder()
                            .indexName("byTenant")
                            .vectorAttribute(a -> a.attributeName("emb"))
                            .dimensions((long) DIMENSIONS)
                            .distanceFunction(VectorDistanceFunction.EUCLIDEAN)
                            .searchSchema(s ->
                                    s.attributeName("category").searchSchemaElementType(SearchSchemaElementType.HASH))
                            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                            .build());
            putItems(c, "docs");
            c.putItem(
                    b -> b.tableName("docs").item(Map.of("id", AttributeValue.fromS("loose"), "emb", list(vector(3)))));
            assertThat(c.describeTable(b -> b.tableName("docs"))
                            .table()
                            .vectorIndexes()
                            .get(0)
                            .itemCount())
                    .isEqualTo(ITEMS);
            SearchVectorsResponse r = c.searchVectors(b -> b.tableName("docs")
                    .indexName("byTenant")
                    .searchVector(query(vector(3)))
                    .topK(3)
                    .searchConditionExpression("category = :c")
                    .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("red"))));
            assertThat(ids(r)).isEqualTo(expected(vector(3), VectorDistanceFunction.EUCLIDEAN, 3, i -> i % 3 == 0));
        }
    }

    @Test
    void updateTableErrors() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createTable(c, "docs", index("byCosine", VectorDistanceFunction.COSINE, ProjectionType.ALL));
            assertError(
                    () -> c.updateTable(
                            b -> b.tableName("docs").vectorIndexUpdates(u -> u.delete(d -> d.indexName("nope")))),
                    "ResourceNotFoundException",
                    "Requested resource not found: Index nope for table docs");
            assertError(
                    () -> c.updateTable(b -> b.tableName("docs")
                            .vectorIndexUpdates(
                                    u -> u.delete(d -> d.indexName("byCosine")),
                                    u -> u.create(x -> x.indexName("another")
                                            .vectorAttribute(a -> a.attributeName("emb"))
                                            .dimensions((long) DIMENSIONS)
                                            .distanceFunction(VectorDistanceFunction.COSINE)
                                            .projection(p -> p.projectionType(ProjectionType.ALL))))),
                    "LimitExceededException",
                    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("docs")
                            .deletionProtectionEnabled(true)
                            .vectorIndexUpdates(u -> u.delete(d -> d.indexName("byCosine")))),
                    "VectorIndexUpdates must be the only operation in the request");
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("docs")
                            .vectorIndexUpdates(u -> u.create(x -> x.indexName("byCosine")
                                    .vectorAttribute(a -> a.attributeName("emb"))
                                    .dimensions((long) DIMENSIONS)
                                    .distanceFunction(VectorDistanceFunction.COSINE)
                                    .projection(p -> p.projectionType(ProjectionType.ALL))))),
                    "One or more parameter values were invalid: Duplicate index name: byCosine");
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("docs")
                            .vectorIndexUpdates(u -> u.create(x -> x.indexName("other")
                                    .vectorAttribute(a -> a.attributeName("emb"))
                                    .dimensions(16L)
                                    .distanceFunction(VectorDistanceFunction.COSINE)
                                    .projection(p -> p.projectionType(ProjectionType.ALL))))),
                    "One or more parameter values were invalid: Vector indexes on attribute emb must all use the same "
                            + "number of dimensions: 8 and 16");
            assertValidation(
                    () -> c.searchVectors(b -> b.tableName("docs")
                            .indexName("byCosine")
                            .searchVector(query(vector(1)))
                            .topK(101)),
                    "1 validation error detected: Value '101' at 'topK' failed to satisfy constraint: "
                            + "Member must have value less than or equal to 100");
        }
    }

    static void awaitActive(DynamoDbClient c, String index) throws InterruptedException {
        long deadline = System.nanoTime() + BACKFILL_WAIT_MAX.toNanos();
        while (System.nanoTime() < deadline) {
            for (VectorIndexDescription x :
                    c.describeTable(b -> b.tableName("docs")).table().vectorIndexes()) {
                if (x.indexName().equals(index) && "ACTIVE".equals(x.indexStatusAsString())) {
                    assertThat(x.backfilling()).isNull();
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("index " + index + " did not become ACTIVE");
    }

    @Test
    void errors() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            assertValidation(
                    () -> c.createTable(b -> b.tableName("prov")
                            .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                            .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                            .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))
                            .vectorIndexes(index("v1x", VectorDistanceFunction.COSINE, ProjectionType.ALL))),
                    "One or more parameter values were invalid: Vector indexes are supported only on tables that use "
                            + "on-demand capacity mode (BillingMode PAY_PER_REQUEST)");
            assertThat(c.listTables().tableNames()).doesNotContain("prov");
            assertValidation(
                    () -> createTable(
                            c,
                            "bad",
                            VectorIndex.builder()
                                    .indexName("v1x")
                                    .vectorAttribute(a -> a.attributeName("emb"))
                                    .dimensions(4097L)
                                    .distanceFunction(VectorDistanceFunction.COSINE)
                                    .projection(p -> p.projectionType(ProjectionType.ALL))
                                    .build()),
                    "One or more parameter values were invalid: Dimensions for vector index v1x must be between 1 "
                            + "and 4096, but was 4097");
            createTable(c, "docs", index("byCosine", VectorDistanceFunction.COSINE, ProjectionType.ALL));
            putItems(c, "docs");
            assertValidation(
                    () -> c.searchVectors(b -> b.tableName("docs")
                            .indexName("byCosine")
                            .searchVector(query(vector(1)))
                            .topK(0)),
                    "1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: "
                            + "Member must have value greater than or equal to 1");
            assertValidation(
                    () -> c.searchVectors(b -> b.tableName("docs")
                            .indexName("byCosine")
                            .searchVector(AttributeValue.fromN("1"), AttributeValue.fromN("2"))
                            .topK(3)),
                    "SearchVector has 2 dimensions, but vector index byCosine has 8");
            assertValidation(
                    () -> c.searchVectors(b -> b.tableName("docs")
                            .indexName("byCosine")
                            .searchVector(AttributeValue.fromS("x"))
                            .topK(3)),
                    "SearchVector must contain only numbers (N)");
            assertError(
                    () -> c.searchVectors(b -> b.tableName("nope")
                            .indexName("byCosine")
                            .searchVector(query(vector(1)))
                            .topK(3)),
                    "ResourceNotFoundException",
                    "Requested resource not found");
            assertValidation(
                    () -> c.searchVectors(b -> b.tableName("docs")
                            .indexName("byCosine")
                            .searchVector(query(vector(1)))
                            .topK(3)
                            .searchConditionExpression("payload = :p")
                            .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("x")))),
                    "Invalid SearchConditionExpression: Attribute payload is not in the SearchSchema of vector index byCosine");
            assertValidation(
                    () -> c.query(b -> b.tableName("docs")
                            .indexName("byCosine")
                            .keyConditionExpression("id = :i")
                            .expressionAttributeValues(Map.of(":i", AttributeValue.fromS("i1")))),
                    "Vector indexes do not support Query or Scan operations; use SearchVectors to read from index byCosine");
            // PartiQL plans a SELECT on an index it does not know as a Scan of it: refused the same way.
            assertValidation(
                    () -> c.executeStatement(b -> b.statement("SELECT * FROM \"docs\".\"byCosine\"")),
                    "Vector indexes do not support Query or Scan operations; use SearchVectors to read from index "
                            + "byCosine");
            assertValidation(
                    () -> c.scan(b -> b.tableName("docs").indexName("byCosine")),
                    "Vector indexes do not support Query or Scan operations; use SearchVectors to read from index byCosine");
        }
    }
}
