package dev.kumiko.server.indexes;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Local secondary indexes: another sort order of one item collection, and that collection's limit. */
class LocalIndexTest {
    private static final String TABLE = "threads";

    private static void createTable(DynamoDbClient c) {
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("postedAt").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .localSecondaryIndexes(l -> l.indexName("byTime")
                        .keySchema(
                                k -> k.attributeName("PK").keyType(KeyType.HASH),
                                k -> k.attributeName("postedAt").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    private static Map<String, AttributeValue> post(String thread, String id, int postedAt, String body) {
        return Map.of(
                "PK",
                s(thread),
                "SK",
                s(id),
                "postedAt",
                AttributeValue.builder().n("" + postedAt).build(),
                "body",
                s(body));
    }

    @Test
    void queriesTheCollectionInIndexOrderAndFetchesUnprojectedAttributes() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createTable(c);
            c.putItem(b -> b.tableName(TABLE).item(post("t1", "a", 30, "third")));
            c.putItem(b -> b.tableName(TABLE).item(post("t1", "b", 10, "first")));
            c.putItem(b -> b.tableName(TABLE).item(post("t1", "c", 20, "second")));
            c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("t1"), "SK", s("d"))));
            c.putItem(b -> b.tableName(TABLE).item(post("t2", "a", 5, "other thread")));

            QueryResponse keys = c.query(b -> b.tableName(TABLE)
                    .indexName("byTime")
                    .keyConditionExpression("PK = :t AND postedAt > :after")
                    .expressionAttributeValues(Map.of(
                            ":t",
                            s("t1"),
                            ":after",
                            AttributeValue.builder().n("0").build())));
            assertThat(keys.items()).extracting(i -> i.get("SK").s()).containsExactly("b", "c", "a");
            assertThat(keys.items().get(0).keySet()).containsExactlyInAnyOrder("PK", "SK", "postedAt");

            QueryResponse whole = c.query(b -> b.tableName(TABLE)
                    .indexName("byTime")
                    .select(Select.ALL_ATTRIBUTES)
                    .keyConditionExpression("PK = :t")
                    .scanIndexForward(false)
                    .expressionAttributeValues(Map.of(":t", s("t1"))));
            assertThat(whole.items()).extracting(i -> i.get("body").s()).containsExactly("third", "second", "first");

            QueryResponse named = c.query(b -> b.tableName(TABLE)
                    .indexName("byTime")
                    .projectionExpression("body")
                    .keyConditionExpression("PK = :t")
                    .limit(1)
                    .expressionAttributeValues(Map.of(":t", s("t1"))));
            assertThat(named.items()).containsExactly(Map.of("body", s("first")));
            assertThat(named.lastEvaluatedKey())
                    .isEqualTo(Map.of(
                            "PK",
                            s("t1"),
                            "SK",
                            s("b"),
                            "postedAt",
                            AttributeValue.builder().n("10").build()));
        }
    }

    @Test
    void writesReturnItemCollectionMetricsWhenAsked() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createTable(c);
            PutItemResponse put = c.putItem(b -> b.tableName(TABLE)
                    .item(post("t1", "a", 1, "x"))
                    .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE));
            ItemCollectionMetrics m = put.itemCollectionMetrics();
            assertThat(m.itemCollectionKey()).isEqualTo(Map.of("PK", s("t1")));
            assertThat(m.sizeEstimateRangeGB()).containsExactly(0.0, 1.0);
            assertThat(c.putItem(b -> b.tableName(TABLE).item(post("t1", "b", 2, "y")))
                            .itemCollectionMetrics())
                    .isNull();
            assertThat(c.deleteItem(b -> b.tableName(TABLE)
                                    .key(Map.of("PK", s("t1"), "SK", s("a")))
                                    .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE))
                            .itemCollectionMetrics()
                            .itemCollectionKey())
                    .isEqualTo(Map.of("PK", s("t1")));
            BatchWriteItemResponse batch =
                    c.batchWriteItem(b -> b.returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)
                            .requestItems(Map.of(
                                    TABLE,
                                    List.of(
                                            WriteRequest.builder()
                                                    .putRequest(p -> p.item(post("t2", "a", 1, "x")))
                                                    .build(),
                                            WriteRequest.builder()
                                                    .putRequest(p -> p.item(post("t3", "a", 1, "x")))
                                                    .build()))));
            assertThat(batch.itemCollectionMetrics().get(TABLE))
                    .extracting(ItemCollectionMetrics::itemCollectionKey)
                    .containsExactly(Map.of("PK", s("t2")), Map.of("PK", s("t3")));
            // A table without LSIs never reports item collections.
            Fixtures.createTable(c, "plain");
            assertThat(c.putItem(b -> b.tableName("plain")
                                    .item(Map.of("PK", s("p"), "SK", s("s")))
                                    .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE))
                            .itemCollectionMetrics())
                    .isNull();
        }
    }

    @Test
    void aFullItemCollectionRefusesGrowthButNotOtherCollections() {
        long limitBytes = 4_000;
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY, new EngineSettings(limitBytes))) {
            DynamoDbClient c = server.client();
            createTable(c);
            String body = "x".repeat(900);
            int written = 0;
            for (; written < 10; written++) {
                int n = written;
                try {
                    c.putItem(b -> b.tableName(TABLE).item(post("full", "p" + n, n, body)));
                } catch (software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException e) {
                    assertThat(e.statusCode()).isEqualTo(400);
                    break;
                }
            }
            // Each item is about 0.95 KB with its LSI entry; four fit in 4,000 bytes, the fifth does not.
            assertThat(written).isEqualTo(4);
            assertError(
                    () -> c.putItem(b -> b.tableName(TABLE).item(post("full", "late", 99, body))),
                    "ItemCollectionSizeLimitExceededException",
                    "Item collection size limit exceeded");
            c.putItem(b -> b.tableName(TABLE).item(post("other", "p", 1, body)));
            c.deleteItem(b -> b.tableName(TABLE).key(Map.of("PK", s("full"), "SK", s("p0"))));
            c.putItem(b -> b.tableName(TABLE).item(post("full", "late", 99, body)));
            assertThat(c.query(b -> b.tableName(TABLE)
                                    .keyConditionExpression("PK = :p")
                                    .expressionAttributeValues(Map.of(":p", s("full"))))
                            .count())
                    .isEqualTo(4);
        }
    }
}
