package dev.kumiko.server.items;

import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Seed 000's chat table: WebSocket CONNECTION records carry a 24-hour ttl so that connections
 * whose $disconnect never ran are cleaned up. A day later they are gone from the table and from
 * the user's connection list, and a Streams consumer (seed 004's handler) tells these TTL
 * deletes from a client's $disconnect delete by userIdentity.
 */
class ConnectionExpiryTest {
    private static final String TABLE = "Connect40-Table-dev";
    private static final long CONNECTED_AT_SECONDS = 1_772_323_200L; // 2026-03-01T00:00:00Z

    private static void createTable(DynamoDbClient c) {
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("GSI1PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("GSI1SK").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("GSI1")
                        .keySchema(
                                k -> k.attributeName("GSI1PK").keyType(KeyType.HASH),
                                k -> k.attributeName("GSI1SK").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(v -> v.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        c.updateTimeToLive(b -> b.tableName(TABLE)
                .timeToLiveSpecification(t -> t.attributeName("ttl").enabled(true)));
    }

    /** connect.ts: the connection record and the user's reverse-lookup record, both with ttl 24 h out. */
    private static void connect(DynamoDbClient c, String userId, String connectionId) {
        long ttl = CONNECTED_AT_SECONDS + 86400;
        c.putItem(b -> b.tableName(TABLE)
                .item(Map.of(
                        "PK",
                        s("CONNECTION#" + connectionId),
                        "SK",
                        s("METADATA"),
                        "Type",
                        s("Connection"),
                        "connectionId",
                        s(connectionId),
                        "userId",
                        s(userId),
                        "connectedAt",
                        n(CONNECTED_AT_SECONDS),
                        "ttl",
                        n(ttl))));
        c.putItem(b -> b.tableName(TABLE)
                .item(Map.of(
                        "PK",
                        s("USER#" + userId),
                        "SK",
                        s("CONNECTION#" + connectionId),
                        "Type",
                        s("UserConnection"),
                        "connectionId",
                        s(connectionId),
                        "connectedAt",
                        n(CONNECTED_AT_SECONDS),
                        "ttl",
                        n(ttl))));
    }

    /** $disconnect ran: the client deletes both records itself. */
    private static void disconnect(DynamoDbClient c, String userId, String connectionId) {
        c.deleteItem(b -> b.tableName(TABLE).key(Map.of("PK", s("CONNECTION#" + connectionId), "SK", s("METADATA"))));
        c.deleteItem(
                b -> b.tableName(TABLE).key(Map.of("PK", s("USER#" + userId), "SK", s("CONNECTION#" + connectionId))));
    }

    private static List<Map<String, AttributeValue>> connectionsOf(DynamoDbClient c, String userId) {
        return c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :pk AND begins_with(SK, :c)")
                        .expressionAttributeValues(Map.of(":pk", s("USER#" + userId), ":c", s("CONNECTION#"))))
                .items();
    }

    @Test
    void deadConnectionsExpireAfterADayAndTheStreamSaysTtlDidIt() {
        ManualClock clock = new ManualClock(CONNECTED_AT_SECONDS * 1000);
        try (TestServer server = TestServer.start(
                        TestServer.StoreKind.ROCKSDB, EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0), clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c);
            connect(c, "user-001", "abc-123");
            connect(c, "user-001", "def-456");
            connect(c, "user-002", "ghi-789");
            c.putItem(b -> b.tableName(TABLE)
                    .item(Map.of(
                            "PK",
                            s("USER#user-001"),
                            "SK",
                            s("CHATROOM#room-xyz"),
                            "GSI1PK",
                            s("USERROOMS#user-001"),
                            "GSI1SK",
                            s("2026-02-15T00:00:00Z"),
                            "Type",
                            s("ChatParticipation"),
                            "chatRoomId",
                            s("room-xyz"))));
            disconnect(c, "user-002", "ghi-789");

            server.engine().admin().advanceTimeToLiveClock(86_399_000);
            assertThat(server.engine().admin().sweepTimeToLive())
                    .as("not yet a day")
                    .isZero();
            assertThat(connectionsOf(c, "user-001")).hasSize(2);

            server.engine().admin().advanceTimeToLiveClock(2_000);
            assertThat(server.engine().admin().sweepTimeToLive()).isEqualTo(4);
            assertThat(connectionsOf(c, "user-001")).isEmpty();
            assertThat(c.getItem(b ->
                                    b.tableName(TABLE).key(Map.of("PK", s("CONNECTION#abc-123"), "SK", s("METADATA"))))
                            .hasItem())
                    .isFalse();
            assertThat(c.query(b -> b.tableName(TABLE)
                                    .keyConditionExpression("PK = :pk AND begins_with(SK, :r)")
                                    .expressionAttributeValues(Map.of(":pk", s("USER#user-001"), ":r", s("CHATROOM#"))))
                            .items())
                    .as("rooms have no ttl")
                    .hasSize(1);

            List<Record> removes = StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE)).stream()
                    .filter(r -> r.eventName() == OperationType.REMOVE)
                    .toList();
            List<Record> byTtl =
                    removes.stream().filter(r -> r.userIdentity() != null).toList();
            List<Record> byClient =
                    removes.stream().filter(r -> r.userIdentity() == null).toList();
            assertThat(byClient)
                    .hasSize(2)
                    .allSatisfy(r -> assertThat(
                                    r.dynamodb().oldImage().get("connectionId").s())
                            .isEqualTo("ghi-789"));
            assertThat(byTtl).hasSize(4).allSatisfy(r -> {
                assertThat(r.userIdentity().type()).isEqualTo("Service");
                assertThat(r.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
                assertThat(r.dynamodb().oldImage().get("Type").s()).isIn("Connection", "UserConnection");
                assertThat(r.dynamodb().newImage()).isEmpty();
            });
        }
    }
}
