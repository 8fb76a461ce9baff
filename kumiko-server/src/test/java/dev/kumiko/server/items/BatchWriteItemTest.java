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
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** BatchWriteItem through the SDK: several tables, puts and deletes, capacity, validation. */
class BatchWriteItemTest {
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "batchA");
        Fixtures.createTable(c, "batchB");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static WriteRequest put(String pk, String sk) {
        return WriteRequest.builder()
                .putRequest(p -> p.item(Map.of("PK", s(pk), "SK", s(sk), "v", s("value"))))
                .build();
    }

    static WriteRequest delete(String pk, String sk) {
        return WriteRequest.builder()
                .deleteRequest(d -> d.key(Map.of("PK", s(pk), "SK", s(sk))))
                .build();
    }

    @Test
    void putsAndDeletesAcrossTwoTables() {
        c.putItem(b -> b.tableName("batchB").item(Map.of("PK", s("gone"), "SK", s("1"))));
        BatchWriteItemResponse r = c.batchWriteItem(b -> b.requestItems(Map.of(
                        "batchA", List.of(put("a", "1"), put("a", "2")),
                        "batchB", List.of(put("a", "1"), delete("gone", "1"))))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.unprocessedItems()).isEmpty();
        assertThat(r.consumedCapacity()).hasSize(2);
        assertThat(r.consumedCapacity()).allMatch(cc -> cc.capacityUnits() == 2.0);
        assertThat(c.query(b -> b.tableName("batchA")
                                .keyConditionExpression("PK = :a")
                                .expressionAttributeValues(Map.of(":a", s("a"))))
                        .count())
                .isEqualTo(2);
        assertThat(c.getItem(b -> b.tableName("batchB").key(Map.of("PK", s("gone"), "SK", s("1"))))
                        .hasItem())
                .isFalse();
        assertThat(c.getItem(b -> b.tableName("batchB").key(Map.of("PK", s("a"), "SK", s("1"))))
                        .item())
                .containsEntry("v", s("value"));
    }

    @Test
    void duplicatesAreRefusedAndNothingIsWritten() {
        expectError(
                Map.of("batchA", List.of(put("dup", "1"), delete("dup", "1"))),
                "Provided list of item keys contains duplicates");
        assertThat(c.getItem(b -> b.tableName("batchA").key(Map.of("PK", s("dup"), "SK", s("1"))))
                        .hasItem())
                .isFalse();
        // The same key in two tables is not a duplicate.
        c.batchWriteItem(
                b -> b.requestItems(Map.of("batchA", List.of(put("same", "1")), "batchB", List.of(put("same", "1")))));
    }

    @Test
    void limitsAndKeyValidation() {
        List<WriteRequest> many = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            many.add(put("many", Integer.toString(i)));
        }
        assertThatThrownBy(() -> c.batchWriteItem(b -> b.requestItems(Map.of("batchA", many))))
                .isInstanceOf(DynamoDbException.class);
        List<WriteRequest> split = new ArrayList<>(many.subList(0, 13));
        expectError(
                Map.of("batchA", split, "batchB", many.subList(13, 26)),
                "Too many items requested for the BatchWriteItem call");
        expectError(
                Map.of(
                        "batchA",
                        List.of(WriteRequest.builder()
                                .putRequest(p -> p.item(Map.of("PK", s("x"))))
                                .build())),
                "One or more parameter values were invalid: Missing the key SK in the item");
        expectError(
                Map.of(
                        "batchA",
                        List.of(WriteRequest.builder()
                                .deleteRequest(d -> d.key(Map.of("PK", s("x"))))
                                .build())),
                "The provided key element does not match the schema");
        assertThatThrownBy(() -> c.batchWriteItem(b -> b.requestItems(Map.of("missingTable", List.of(put("a", "1"))))))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    private static void expectError(Map<String, List<WriteRequest>> items, String message) {
        assertThatThrownBy(() -> c.batchWriteItem(b -> b.requestItems(items)))
                .isInstanceOf(DynamoDbException.class)
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorMessage())
                        .isEqualTo(message));
    }
}
