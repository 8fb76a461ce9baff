package dev.kumiko.server.items;

import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import dev.kumiko.server.streams.StreamsTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** UpdateTimeToLive / DescribeTimeToLive through the SDK, and the sweeper deleting expired items. */
@Tag("slow")
class TimeToLiveTest {
    private static final String TABLE = "expiring";
    private static final long NOW_SECONDS = 1_700_000_000L;

    private static void enable(DynamoDbClient c, String attribute) {
        c.updateTimeToLive(b -> b.tableName(TABLE)
                .timeToLiveSpecification(t -> t.attributeName(attribute).enabled(true)));
    }

    private static void assertValidation(Runnable call, String message) {
        assertThatThrownBy(call::run).isInstanceOf(DynamoDbException.class).satisfies(e -> {
            assertThat(((DynamoDbException) e).awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            assertThat(((DynamoDbException) e).awsErrorDetails().errorMessage()).isEqualTo(message);
        });
    }

    private static TimeToLiveDescription describe(DynamoDbClient c) {
        return c.describeTimeToLive(b -> b.tableName(TABLE)).timeToLiveDescription();
    }

    @Test
    void enableDisableAndDynamoDbsRefusals() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            Txn.createHashTable(c, TABLE);
            assertThat(describe(c).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
            assertThat(describe(c).attributeName()).isNull();

            var answer = c.updateTimeToLive(b -> b.tableName(TABLE)
                            .timeToLiveSpecification(
                                    t -> t.attributeName("expiresAt").enabled(true)))
                    .timeToLiveSpecification();
            assertThat(answer.attributeName()).isEqualTo("expiresAt");
            assertThat(answer.enabled()).isTrue();
            assertThat(describe(c).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
            assertThat(describe(c).attributeName()).isEqualTo("expiresAt");

            assertValidation(() -> enable(c, "expiresAt"), "TimeToLive is already enabled");
            assertValidation(
                    () -> enable(c, "other"),
                    "TimeToLive is active on a different AttributeName: current AttributeName is expiresAt");
            assertValidation(
                    () -> c.updateTimeToLive(b -> b.tableName(TABLE)
                            .timeToLiveSpecification(
                                    t -> t.attributeName("other").enabled(false))),
                    "TimeToLive is active on a different AttributeName: current AttributeName is expiresAt");
            c.updateTimeToLive(b -> b.tableName(TABLE)
                    .timeToLiveSpecification(t -> t.attributeName("expiresAt").enabled(false)));
            assertThat(describe(c).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
            assertValidation(
                    () -> c.updateTimeToLive(b -> b.tableName(TABLE)
                            .timeToLiveSpecification(
                                    t -> t.attributeName("expiresAt").enabled(false))),
                    "TimeToLive is already disabled");
            enable(c, "other");
            assertThat(describe(c).attributeName()).isEqualTo("other");

            assertValidation(
                    () -> c.updateTimeToLive(b -> b.tableName(TABLE).timeToLiveSpecification(t -> t.enabled(true))),
                    "1 validation error detected: Value null at "
                            + "'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null");
            assertValidation(
                    () -> c.updateTimeToLive(
                            b -> b.tableName(TABLE).timeToLiveSpecification(t -> t.attributeName("x"))),
                    "1 validation error detected: Value null at "
                            + "'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null");
            assertValidation(
                    () -> c.updateTimeToLive(b -> b.tableName(TABLE)),
                    "1 validation error detected: Value "
                            + "null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null");
            assertThatThrownBy(() -> c.describeTimeToLive(b -> b.tableName("missing")))
                    .isInstanceOf(ResourceNotFoundException.class);
        }
    }

    private static void createIndexedTable(DynamoDbClient c) {
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .globalSecondaryIndexes(x -> x.indexName("byG")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(v -> v.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        enable(c, "ttl");
    }

    private static Map<String, AttributeValue> item(String pk, AttributeValue ttl) {
        return ttl == null ? Map.of("pk", s(pk), "g", s("all")) : Map.of("pk", s(pk), "g", s("all"), "ttl", ttl);
    }

    private static List<String> indexed(DynamoDbClient c) {
        return c
                .query(b -> b.tableName(TABLE)
                        .indexName("byG")
                        .keyConditionExpression("g = :g")
                        .expressionAttributeValues(Map.of(":g", s("all"))))
                .items()
                .stream()
                .map(i -> i.get("pk").s())
                .sorted()
                .toList();
    }

    @Test
    void theSweeperDeletesWhatDynamoDbWouldAndTheStreamSaysTheServiceDidIt() {
        ManualClock clock = new ManualClock(NOW_SECONDS * 1000);
        EngineSettings noBackgroundSweeps = EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0);
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY, noBackgroundSweeps, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createIndexedTable(c);
            long fiveYears = 5L * 365 * 24 * 3600;
            c.putItem(b -> b.tableName(TABLE).item(item("expired", n(NOW_SECONDS - 10))));
            c.putItem(b -> b.tableName(TABLE)
                    .item(item(
                            "fraction",
                            AttributeValue.builder().n((NOW_SECONDS - 1) + ".5").build())));
            c.putItem(b -> b.tableName(TABLE).item(item("now", n(NOW_SECONDS))));
            c.putItem(b -> b.tableName(TABLE).item(item("later", n(NOW_SECONDS + 100))));
            c.putItem(b -> b.tableName(TABLE).item(item("string", s(Long.toString(NOW_SECONDS - 10)))));
            c.putItem(b -> b.tableName(TABLE).item(item("ancient", n(NOW_SECONDS - fiveYears))));
            c.putItem(b -> b.tableName(TABLE).item(item("millis", n(NOW_SECONDS * 1000 + 5))));
            c.putItem(b -> b.tableName(TABLE).item(item("none", null)));

            assertThat(c.getItem(b -> b.tableName(TABLE).key(Map.of("pk", s("expired"))))
                            .hasItem())
                    .as("an expired item is read until it is swept")
                    .isTrue();
            assertThat(server.engine().admin().sweepTimeToLive()).isEqualTo(2);
            assertThat(indexed(c))
                    .as("gone from the index too")
                    .containsExactly("ancient", "later", "millis", "none", "now", "string");

            server.engine().admin().advanceTimeToLiveClock(101_000);
            assertThat(server.engine().admin().sweepTimeToLive()).isEqualTo(2);
            assertThat(indexed(c)).containsExactly("ancient", "millis", "none", "string");
            c.deleteItem(b -> b.tableName(TABLE).key(Map.of("pk", s("none"))));

            List<Record> removes = StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE)).stream()
                    .filter(r -> r.eventName() == OperationType.REMOVE)
                    .toList();
            assertThat(StreamsTest.pks(removes)).containsExactly("expired", "fraction", "later", "now", "none");
            assertThat(removes.subList(0, 4)).allSatisfy(r -> {
                assertThat(r.userIdentity().type()).isEqualTo("Service");
                assertThat(r.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
                assertThat(r.dynamodb().oldImage()).containsKey("ttl");
            });
            assertThat(removes.get(4).userIdentity()).as("a client's delete").isNull();
            assertThat(c.describeTable(b -> b.tableName(TABLE)).table().itemCount())
                    .isEqualTo(3);
        }
    }

    @Test
    void aDisabledTtlDeletesNothingAndAnUpdatedItemIsKept() {
        ManualClock clock = new ManualClock(NOW_SECONDS * 1000);
        try (TestServer server = TestServer.start(
                TestServer.StoreKind.ROCKSDB, EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0), clock)) {
            DynamoDbClient c = server.client();
            createIndexedTable(c);
            c.putItem(b -> b.tableName(TABLE).item(item("a", n(NOW_SECONDS + 10))));
            c.updateTimeToLive(b -> b.tableName(TABLE)
                    .timeToLiveSpecification(t -> t.attributeName("ttl").enabled(false)));
            server.engine().admin().advanceTimeToLiveClock(20_000);
            assertThat(server.engine().admin().sweepTimeToLive()).isZero();
            enable(c, "ttl");
            server.restart();
            c = server.client();
            assertThat(describe(c).timeToLiveStatus())
                    .as("kept across a restart")
                    .isEqualTo(TimeToLiveStatus.ENABLED);
            c.updateItem(b -> b.tableName(TABLE)
                    .key(Map.of("pk", s("a")))
                    .updateExpression("SET #t = :later")
                    .expressionAttributeNames(Map.of("#t", "ttl"))
                    .expressionAttributeValues(Map.of(":later", n(NOW_SECONDS + 3600))));
            server.engine().admin().advanceTimeToLiveClock(20_000);
            assertThat(server.engine().admin().sweepTimeToLive()).isZero();
            server.engine().admin().advanceTimeToLiveClock(3600_000);
            assertThat(server.engine().admin().sweepTimeToLive()).isEqualTo(1);
        }
    }
}
