package dev.kumiko.server.items;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/** BatchGetItem through the SDK: two tables, projection, missing items, capacity, validation. */
class BatchGetItemTest {
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "getA");
        Fixtures.createTable(c, "getB");
        c.batchWriteItem(b -> b.requestItems(Map.of(
                "getA", List.of(BatchWriteItemTest.put("a", "1"), BatchWriteItemTest.put("a", "2")),
                "getB", List.of(BatchWriteItemTest.put("b", "1")))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("PK", s(pk), "SK", s(sk));
    }

    @Test
    void readsAcrossTwoTablesWithProjection() {
        BatchGetItemResponse r = c.batchGetItem(b -> b.requestItems(Map.of(
                        "getA",
                                KeysAndAttributes.builder()
                                        .keys(key("a", "1"), key("a", "2"), key("a", "missing"))
                                        .projectionExpression("#s")
                                        .expressionAttributeNames(Map.of("#s", "SK"))
                                        .build(),
                        "getB",
                                KeysAndAttributes.builder()
                                        .keys(key("b", "1"))
                                        .consistentRead(true)
                                        .build()))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.responses().get("getA")).containsExactlyInAnyOrder(Map.of("SK", s("1")), Map.of("SK", s("2")));
        assertThat(r.responses().get("getB")).containsExactly(Map.of("PK", s("b"), "SK", s("1"), "v", s("value")));
        assertThat(r.unprocessedKeys()).isEmpty();
        assertThat(r.consumedCapacity()).hasSize(2);
        assertThat(r.consumedCapacity()).anyMatch(cc -> cc.tableName().equals("getA") && cc.capacityUnits() == 1.5);
        assertThat(r.consumedCapacity()).anyMatch(cc -> cc.tableName().equals("getB") && cc.capacityUnits() == 1.0);
    }

    @Test
    void legacyAttributesToGet() {
        BatchGetItemResponse r = c.batchGetItem(b -> b.requestItems(Map.of(
                "getA",
                KeysAndAttributes.builder()
                        .keys(key("a", "1"))
                        .attributesToGet("v")
                        .build())));
        assertThat(r.responses().get("getA")).containsExactly(Map.of("v", s("value")));
    }

    @Test
    void validation() {
        expectError(
                Map.of(
                        "getA",
                        KeysAndAttributes.builder()
                                .keys(key("a", "1"), key("a", "1"))
                                .build()),
                "Provided list of item keys contains duplicates");
        List<Map<String, AttributeValue>> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(key("k", Integer.toString(i)));
        }
        expectError(
                Map.of(
                        "getA",
                        KeysAndAttributes.builder().keys(many.subList(0, 60)).build(),
                        "getB",
                        KeysAndAttributes.builder().keys(many.subList(60, 101)).build()),
                "Too many items requested for the BatchGetItem call");
        expectError(
                Map.of(
                        "getA",
                        KeysAndAttributes.builder().keys(Map.of("PK", s("a"))).build()),
                "The provided key element does not match the schema");
    }

    private static void expectError(Map<String, KeysAndAttributes> items, String message) {
        assertThatThrownBy(() -> c.batchGetItem(b -> b.requestItems(items)))
                .isInstanceOf(DynamoDbException.class)
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorMessage())
                        .isEqualTo(message));
    }
}
