package dev.kumiko.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The embedding API, driven through the SDK clients it hands out. */
class KumikoEmbeddedTest {
    @TempDir
    Path dir;

    private static void createTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build())
                .streamSpecification(StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build()));
    }

    private static Map<String, AttributeValue> item(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }

    @Test
    void clientsOfEveryKindReachTheServer() throws Exception {
        try (Kumiko kumiko = Kumiko.inMemory()) {
            assertThat(kumiko.endpoint().toString()).isEqualTo("http://127.0.0.1:" + kumiko.port());
            DynamoDbClient ddb = kumiko.dynamoDbClient();
            assertThat(kumiko.dynamoDbClient()).isSameAs(ddb);
            createTable(ddb, "things");
            ddb.putItem(b -> b.tableName("things").item(item("a")));
            assertThat(kumiko.dynamoDbAsyncClient()
                            .getItem(b -> b.tableName("things").key(item("a")))
                            .get()
                            .item())
                    .isEqualTo(item("a"));
            assertThat(kumiko.streamsClient().listStreams().streams())
                    .hasSize(1)
                    .allSatisfy(s -> assertThat(s.tableName()).isEqualTo("things"));
        }
    }

    @Test
    void resetDropsEveryTable() {
        try (Kumiko kumiko = Kumiko.inMemory()) {
            DynamoDbClient ddb = kumiko.dynamoDbClient();
            createTable(ddb, "one");
            createTable(ddb, "two");
            ddb.putItem(b -> b.tableName("one").item(item("a")));
            kumiko.advanceClock(Duration.ofDays(3));
            kumiko.reset();
            assertThat(ddb.listTables().tableNames()).isEmpty();
            assertThat(kumiko.now()).isBefore(Instant.now().plus(Duration.ofDays(1)));
            // The same name again is a new, empty table.
            createTable(ddb, "one");
            assertThat(ddb.scan(b -> b.tableName("one")).items()).isEmpty();
        }
    }

    @Test
    void clockAndSweepExpireItemsWithoutWaiting() {
        try (Kumiko kumiko = Kumiko.builder().ttlSweepIntervalMillis(0).start()) {
            DynamoDbClient ddb = kumiko.dynamoDbClient();
            createTable(ddb, "sessions");
            ddb.updateTimeToLive(b -> b.tableName("sessions")
                    .timeToLiveSpecification(t -> t.attributeName("expiresAt").enabled(true)));
            Instant start = Instant.parse("2030-01-01T00:00:00Z");
            kumiko.setClock(start);
            ddb.putItem(b -> b.tableName("sessions")
                    .item(Map.of(
                            "pk",
                            AttributeValue.fromS("s"),
                            "expiresAt",
                            AttributeValue.fromN(
                                    String.valueOf(start.plusSeconds(60).getEpochSecond())))));
            assertThat(kumiko.sweepExpiredItems()).isZero();
            kumiko.advanceClock(Duration.ofMinutes(2));
            assertThat(kumiko.now()).isAfter(start.plusSeconds(60));
            assertThat(kumiko.sweepExpiredItems()).isEqualTo(1);
            assertThat(ddb.scan(b -> b.tableName("sessions")).items()).isEmpty();
        }
    }

    @Tag("slow")
    @Test
    void closeFreesThePort() {
        Kumiko kumiko = Kumiko.inMemory();
        int port = kumiko.port();
        kumiko.dynamoDbClient().listTables();
        kumiko.close();
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void onDiskKeepsDataAcrossRestarts() throws IOException {
        Path data = dir.resolve("data");
        try (Kumiko kumiko = Kumiko.onDisk(data)) {
            createTable(kumiko.dynamoDbClient(), "kept");
            kumiko.dynamoDbClient().putItem(b -> b.tableName("kept").item(item("a")));
        }
        try (Kumiko kumiko = Kumiko.onDisk(data)) {
            assertThat(kumiko.dynamoDbClient()
                            .getItem(b -> b.tableName("kept").key(item("a")))
                            .item())
                    .isEqualTo(item("a"));
        }
    }
}
