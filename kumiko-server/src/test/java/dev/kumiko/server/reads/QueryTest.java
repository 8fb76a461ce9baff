package dev.kumiko.server.reads;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Select;

/** Query through the SDK: key conditions, order, paging, filters, projection, Select, errors. */
class QueryTest {
    static TestServer server;
    static DynamoDbClient c;
    static final String TABLE = "queries";

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, TABLE);
        for (int i = 0; i < 30; i++) {
            String sk = String.format("ITEM#%02d", i);
            int n = i;
            c.putItem(b -> b.tableName(TABLE)
                    .item(Map.of(
                            "PK",
                            s("P"),
                            "SK",
                            s(sk),
                            "n",
                            AttributeValue.builder().n(Integer.toString(n)).build(),
                            "other",
                            s("x" + n))));
        }
        c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("P"), "SK", s("PROFILE"))));
        c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("Q"), "SK", s("ITEM#05"))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static QueryResponse query(String kce, Map<String, AttributeValue> values) {
        return c.query(b -> b.tableName(TABLE).keyConditionExpression(kce).expressionAttributeValues(values));
    }

    private static List<String> sortKeys(QueryResponse r) {
        List<String> out = new ArrayList<>();
        r.items().forEach(i -> out.add(i.get("SK").s()));
        return out;
    }

    @Test
    void keyConditionOperators() {
        assertThat(query("PK = :p", Map.of(":p", s("P"))).count()).isEqualTo(31);
        assertThat(sortKeys(query("PK = :p AND SK = :a", Map.of(":p", s("P"), ":a", s("ITEM#07")))))
                .containsExactly("ITEM#07");
        assertThat(query("PK = :p AND SK < :a", Map.of(":p", s("P"), ":a", s("ITEM#05")))
                        .count())
                .isEqualTo(5);
        assertThat(query("PK = :p AND SK <= :a", Map.of(":p", s("P"), ":a", s("ITEM#05")))
                        .count())
                .isEqualTo(6);
        assertThat(query("PK = :p AND SK > :a", Map.of(":p", s("P"), ":a", s("ITEM#25")))
                        .count())
                .isEqualTo(5);
        assertThat(query("PK = :p AND SK >= :a", Map.of(":p", s("P"), ":a", s("ITEM#25")))
                        .count())
                .isEqualTo(6);
        assertThat(sortKeys(query(
                        "PK = :p AND SK BETWEEN :a AND :b",
                        Map.of(":p", s("P"), ":a", s("ITEM#10"), ":b", s("ITEM#12")))))
                .containsExactly("ITEM#10", "ITEM#11", "ITEM#12");
        assertThat(sortKeys(query("PK = :p AND begins_with(SK, :a)", Map.of(":p", s("P"), ":a", s("ITEM#2")))))
                .hasSize(10)
                .allMatch(k -> k.startsWith("ITEM#2"));
    }

    @Test
    void reverseOrder() {
        QueryResponse r = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p AND begins_with(SK, :a)")
                .expressionAttributeValues(Map.of(":p", s("P"), ":a", s("ITEM#")))
                .scanIndexForward(false)
                .limit(3));
        assertThat(sortKeys(r)).containsExactly("ITEM#29", "ITEM#28", "ITEM#27");
        assertThat(r.lastEvaluatedKey()).isEqualTo(Map.of("PK", s("P"), "SK", s("ITEM#27")));
    }

    @Test
    void limitPagesAcrossSeveralPages() {
        List<String> all = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = c.query(b -> b.tableName(TABLE)
                    .keyConditionExpression("PK = :p")
                    .expressionAttributeValues(Map.of(":p", s("P")))
                    .limit(7)
                    .exclusiveStartKey(from));
            all.addAll(sortKeys(r));
            start = r.lastEvaluatedKey().isEmpty() ? null : r.lastEvaluatedKey();
            pages++;
        } while (start != null);
        assertThat(pages).isEqualTo(5);
        assertThat(all).hasSize(31).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void filterCountsAndScannedCount() {
        QueryResponse r = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p AND begins_with(SK, :a)")
                .filterExpression("n >= :min")
                .expressionAttributeValues(Map.of(
                        ":p",
                        s("P"),
                        ":a",
                        s("ITEM#"),
                        ":min",
                        AttributeValue.builder().n("25").build())));
        assertThat(r.count()).isEqualTo(5);
        assertThat(r.scannedCount()).isEqualTo(30);
        QueryResponse limited = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p")
                .filterExpression("n >= :min")
                .limit(10)
                .expressionAttributeValues(Map.of(
                        ":p", s("P"), ":min", AttributeValue.builder().n("25").build())));
        assertThat(limited.count()).isZero();
        assertThat(limited.scannedCount()).isEqualTo(10);
        assertThat(limited.lastEvaluatedKey()).containsEntry("SK", s("ITEM#09"));
    }

    @Test
    void projectionAndSelectCount() {
        QueryResponse p = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p AND SK = :a")
                .projectionExpression("#o")
                .expressionAttributeNames(Map.of("#o", "other"))
                .expressionAttributeValues(Map.of(":p", s("P"), ":a", s("ITEM#03"))));
        assertThat(p.items()).containsExactly(Map.of("other", s("x3")));
        QueryResponse count = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p")
                .select(Select.COUNT)
                .expressionAttributeValues(Map.of(":p", s("P"))));
        assertThat(count.count()).isEqualTo(31);
        assertThat(count.hasItems()).isFalse();
    }

    @Test
    void consumedCapacityIsSummedOverThePage() {
        QueryResponse r = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p")
                .expressionAttributeValues(Map.of(":p", s("P")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.consumedCapacity().capacityUnits()).isEqualTo(0.5);
        QueryResponse consistent = c.query(b -> b.tableName(TABLE)
                .keyConditionExpression("PK = :p")
                .consistentRead(true)
                .expressionAttributeValues(Map.of(":p", s("P")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(consistent.consumedCapacity().capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void legacyKeyConditionsAndQueryFilter() {
        QueryResponse r = c.query(b -> b.tableName(TABLE)
                .keyConditions(Map.of(
                        "PK",
                        cond(ComparisonOperator.EQ, s("P")),
                        "SK",
                        cond(ComparisonOperator.BEGINS_WITH, s("ITEM#1"))))
                .queryFilter(Map.of(
                        "n",
                        cond(
                                ComparisonOperator.GT,
                                AttributeValue.builder().n("15").build())))
                .attributesToGet("SK"));
        assertThat(sortKeys(r)).containsExactly("ITEM#16", "ITEM#17", "ITEM#18", "ITEM#19");
        assertThat(r.items().get(0)).containsOnlyKeys("SK");
    }

    private static Condition cond(ComparisonOperator op, AttributeValue... values) {
        return Condition.builder()
                .comparisonOperator(op)
                .attributeValueList(values)
                .build();
    }

    @Test
    void errors() {
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .expressionAttributeValues(
                                Map.of(":p", AttributeValue.builder().n("1").build())),
                "One or more parameter values were invalid: Condition parameter type does not match schema type");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .filterExpression("SK = :s")
                        .expressionAttributeValues(Map.of(":p", s("P"), ":s", s("x"))),
                "Filter Expression can only contain non-primary key attributes: Primary key attribute: SK");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .exclusiveStartKey(Map.of("PK", s("P")))
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "The provided starting key is invalid");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .exclusiveStartKey(Map.of(
                                "PK",
                                s("P"),
                                "SK",
                                AttributeValue.builder().n("1").build()))
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "The provided starting key is invalid");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .exclusiveStartKey(Map.of("PK", s("Q"), "SK", s("A")))
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "The provided starting key is outside query boundaries based on provided condition");
        expectError(
                b -> b.keyConditionExpression("PK = :p AND begins_with(SK, :i)")
                        .exclusiveStartKey(Map.of("PK", s("P"), "SK", s("PROFILE")))
                        .expressionAttributeValues(Map.of(":p", s("P"), ":i", s("ITEM#"))),
                "The provided starting key does not match the range key predicate");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .select(Select.SPECIFIC_ATTRIBUTES)
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing "
                        + "to get SPECIFIC_ATTRIBUTES");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .select(Select.ALL_ATTRIBUTES)
                        .projectionExpression("n")
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "1 validation error detected: Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .select(Select.COUNT)
                        .projectionExpression("n")
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "1 validation error detected: Cannot specify the ProjectionExpression when choosing to get only the Count");
        expectError(
                b -> b.keyConditionExpression("PK = :p")
                        .indexName("byOther")
                        .expressionAttributeValues(Map.of(":p", s("P"))),
                "The table does not have the specified index: byOther");
    }

    private static void expectError(java.util.function.Consumer<QueryRequest.Builder> request, String message) {
        assertThatThrownBy(() -> c.query(b -> request.accept(b.tableName(TABLE))))
                .isInstanceOf(DynamoDbException.class)
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorMessage())
                        .isEqualTo(message))
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorCode())
                        .isEqualTo("ValidationException"));
    }

    /** Seed 000: a chat room's newest 50 messages, then the next 50, on both stores. */
    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void chatRoomMessagesNewestFirst(TestServer.StoreKind kind) {
        try (TestServer s2 = TestServer.start(kind)) {
            DynamoDbClient client = s2.client();
            Fixtures.createTable(client, "chat");
            client.putItem(b -> b.tableName("chat").item(Map.of("PK", s("ROOM#1"), "SK", s("METADATA"))));
            List<Map<String, AttributeValue>> messages = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                String sk = String.format("MESSAGE#2024-01-01T00:%02d:%02d", i / 60, i % 60);
                messages.add(Map.of("PK", s("ROOM#1"), "SK", s(sk), "text", s("hello " + i)));
            }
            Fixtures.putAll(client, "chat", messages);
            client.putItem(b -> b.tableName("chat").item(Map.of("PK", s("ROOM#2"), "SK", s("MESSAGE#x"))));
            Map<String, AttributeValue> values = new HashMap<>(Map.of(":pk", s("ROOM#1"), ":m", s("MESSAGE#")));
            QueryResponse first = client.query(b -> b.tableName("chat")
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :m)")
                    .expressionAttributeValues(values)
                    .scanIndexForward(false)
                    .limit(50));
            assertThat(first.count()).isEqualTo(50);
            assertThat(first.items().get(0).get("text").s()).isEqualTo("hello 119");
            assertThat(first.items().get(49).get("text").s()).isEqualTo("hello 70");
            QueryResponse second = client.query(b -> b.tableName("chat")
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :m)")
                    .expressionAttributeValues(values)
                    .scanIndexForward(false)
                    .limit(50)
                    .exclusiveStartKey(first.lastEvaluatedKey()));
            assertThat(second.items().get(0).get("text").s()).isEqualTo("hello 69");
            assertThat(second.items().get(49).get("text").s()).isEqualTo("hello 20");
            QueryResponse third = client.query(b -> b.tableName("chat")
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :m)")
                    .expressionAttributeValues(values)
                    .scanIndexForward(false)
                    .limit(50)
                    .exclusiveStartKey(second.lastEvaluatedKey()));
            assertThat(third.count()).isEqualTo(20);
            assertThat(third.lastEvaluatedKey()).isEmpty();
        }
    }
}
