package dev.kumiko.server.indexes;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;

/** UpdateTable GlobalSecondaryIndexUpdates: Create with backfill, Update throughput, Delete. */
@Tag("slow")
public class GsiLifecycleTest {
    private static final int ITEMS = 600;
    /** A bound on waiting for the background backfill, not a timing assertion. */
    private static final Duration BACKFILL_WAIT_MAX = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void createdIndexIsBackfilledThenMaintainedAndSurvivesRestart(TestServer.StoreKind kind) throws Exception {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, "orders");
            for (int i = 0; i < ITEMS; i++) {
                Map<String, AttributeValue> item = new java.util.HashMap<>(Map.of("PK", s("o" + i), "SK", s("v")));
                if (i % 3 == 0) {
                    item.put("status", s(i % 2 == 0 ? "open" : "done"));
                }
                c.putItem(b -> b.tableName("orders").item(item));
            }
            UpdateTableResponse created = c.updateTable(b -> b.tableName("orders")
                    .attributeDefinitions(
                            a -> a.attributeName("status").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("PK").attributeType(ScalarAttributeType.S))
                    .globalSecondaryIndexUpdates(u -> u.create(g -> g.indexName("byStatus")
                            .keySchema(
                                    k -> k.attributeName("status").keyType(KeyType.HASH),
                                    k -> k.attributeName("PK").keyType(KeyType.RANGE))
                            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))));
            GlobalSecondaryIndexDescription creating =
                    created.tableDescription().globalSecondaryIndexes().get(0);
            assertThat(creating.indexStatus()).isEqualTo(IndexStatus.CREATING);
            assertThat(creating.backfilling()).isTrue();
            assertThat(created.tableDescription().tableStatus()).isEqualTo(TableStatus.UPDATING);
            assertThat(created.tableDescription().attributeDefinitions())
                    .extracting(a -> a.attributeName())
                    .containsExactlyInAnyOrder("PK", "SK", "status");

            GlobalSecondaryIndexDescription active = awaitActive(c, "orders", "byStatus");
            assertThat(active.backfilling()).isNull();
            assertThat(active.itemCount()).isEqualTo(ITEMS / 3);
            assertThat(queryStatus(c, "open").count()).isEqualTo(100);
            assertThat(queryStatus(c, "done").count()).isEqualTo(100);

            c.putItem(b -> b.tableName("orders").item(Map.of("PK", s("new"), "SK", s("v"), "status", s("open"))));
            c.deleteItem(b -> b.tableName("orders").key(Map.of("PK", s("o0"), "SK", s("v"))));
            assertThat(queryStatus(c, "open").count()).isEqualTo(100);
            if (kind == TestServer.StoreKind.ROCKSDB) {
                server.restart();
                c = server.client();
            }
            QueryResponse open = queryStatus(c, "open");
            assertThat(open.items())
                    .extracting(i -> i.get("PK").s())
                    .contains("new")
                    .doesNotContain("o0");
            assertThat(open.items().get(0).keySet()).containsExactlyInAnyOrder("PK", "SK", "status");
            assertThat(indexOf(c.describeTable(b -> b.tableName("orders")).table(), "byStatus")
                            .itemCount())
                    .isEqualTo(ITEMS / 3);
        }
    }

    private static QueryResponse queryStatus(DynamoDbClient c, String status) {
        return c.query(b -> b.tableName("orders")
                .indexName("byStatus")
                .keyConditionExpression("#s = :s")
                .expressionAttributeNames(Map.of("#s", "status"))
                .expressionAttributeValues(Map.of(":s", s(status))));
    }

    public static GlobalSecondaryIndexDescription awaitActive(DynamoDbClient c, String table, String index)
            throws InterruptedException {
        long deadline = System.nanoTime() + BACKFILL_WAIT_MAX.toNanos();
        while (true) {
            GlobalSecondaryIndexDescription x =
                    indexOf(c.describeTable(b -> b.tableName(table)).table(), index);
            if (x.indexStatus() == IndexStatus.ACTIVE || System.nanoTime() > deadline) {
                assertThat(x.indexStatus()).as("index status after waiting").isEqualTo(IndexStatus.ACTIVE);
                return x;
            }
            Thread.sleep(20);
        }
    }

    static GlobalSecondaryIndexDescription indexOf(TableDescription t, String name) {
        return t.globalSecondaryIndexes().stream()
                .filter(x -> x.indexName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void deleteRemovesTheIndexAndPrunesItsAttributeDefinitions() throws Exception {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createWithGsi(c, "tab", BillingMode.PAY_PER_REQUEST);
            c.putItem(b -> b.tableName("tab").item(Map.of("PK", s("a"), "SK", s("1"), "g", s("x"))));
            UpdateTableResponse r = c.updateTable(
                    b -> b.tableName("tab").globalSecondaryIndexUpdates(u -> u.delete(d -> d.indexName("byG"))));
            assertThat(indexOf(r.tableDescription(), "byG").indexStatusAsString())
                    .isEqualTo("DELETING");
            TableDescription after = c.describeTable(b -> b.tableName("tab")).table();
            assertThat(after.hasGlobalSecondaryIndexes()
                            && !after.globalSecondaryIndexes().isEmpty())
                    .isFalse();
            assertThat(after.attributeDefinitions())
                    .extracting(a -> a.attributeName())
                    .containsExactlyInAnyOrder("PK", "SK");
            assertValidation(
                    () -> c.query(b -> b.tableName("tab")
                            .indexName("byG")
                            .keyConditionExpression("g = :g")
                            .expressionAttributeValues(Map.of(":g", s("x")))),
                    "The table does not have the specified index: byG");
            // The name can be used again, and the new index starts from the items, not old entries.
            c.updateTable(b -> b.tableName("tab")
                    .attributeDefinitions(a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                    .globalSecondaryIndexUpdates(u -> u.create(g -> g.indexName("byG")
                            .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                            .projection(p -> p.projectionType(ProjectionType.ALL)))));
            assertThat(awaitActive(c, "tab", "byG").itemCount()).isEqualTo(1);
        }
    }

    @Test
    void aNewTablesIndexesAnswerCreatingThenAreActive() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            GlobalSecondaryIndexDescription answered = c.createTable(b -> b.tableName("fresh")
                            .attributeDefinitions(
                                    a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                                    a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                            .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                            .billingMode(BillingMode.PAY_PER_REQUEST)
                            .globalSecondaryIndexes(g -> g.indexName("byG")
                                    .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                                    .projection(p -> p.projectionType(ProjectionType.ALL))))
                    .tableDescription()
                    .globalSecondaryIndexes()
                    .get(0);
            assertThat(answered.indexStatus()).isEqualTo(IndexStatus.CREATING);
            assertThat(answered.backfilling()).isNull();
            assertThat(indexOf(c.describeTable(b -> b.tableName("fresh")).table(), "byG")
                            .indexStatus())
                    .isEqualTo(IndexStatus.ACTIVE);
        }
    }

    @Test
    void throughputUpdateChangesTheIndexOnly() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createWithGsi(c, "prov", BillingMode.PROVISIONED);
            c.updateTable(b -> b.tableName("prov")
                    .globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("byG")
                            .provisionedThroughput(t -> t.readCapacityUnits(7L).writeCapacityUnits(9L)))));
            TableDescription t = c.describeTable(b -> b.tableName("prov")).table();
            assertThat(indexOf(t, "byG").provisionedThroughput().readCapacityUnits())
                    .isEqualTo(7L);
            assertThat(indexOf(t, "byG").provisionedThroughput().writeCapacityUnits())
                    .isEqualTo(9L);
            assertThat(t.provisionedThroughput().readCapacityUnits()).isEqualTo(5L);
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("prov")
                            .globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("byG")
                                    .provisionedThroughput(
                                            p -> p.readCapacityUnits(7L).writeCapacityUnits(9L))))),
                    "The provisioned throughput for the index byG will not change. The requested value equals the "
                            + "current value. Current ReadCapacityUnits provisioned for index byG: 7. Requested "
                            + "ReadCapacityUnits: 7. Current WriteCapacityUnits provisioned for index byG: 9. Requested "
                            + "WriteCapacityUnits: 9. Refer to the Amazon DynamoDB Developer Guide for current limits "
                            + "and how to request higher limits.");
        }
    }

    @Test
    void invalidUpdatesAreRejectedAndChangeNothing() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient c = server.client();
            createWithGsi(c, "tab", BillingMode.PAY_PER_REQUEST);
            GlobalSecondaryIndexUpdate createH = create("byH", "h");
            GlobalSecondaryIndexUpdate createI = create("byI", "i");
            assertError(
                    () -> c.updateTable(b -> b.tableName("tab")
                            .attributeDefinitions(
                                    a -> a.attributeName("h").attributeType(ScalarAttributeType.S),
                                    a -> a.attributeName("i").attributeType(ScalarAttributeType.S))
                            .globalSecondaryIndexUpdates(createH, createI)),
                    "LimitExceededException",
                    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
            assertError(
                    () -> c.updateTable(b ->
                            b.tableName("tab").globalSecondaryIndexUpdates(u -> u.delete(d -> d.indexName("ghost")))),
                    "ResourceNotFoundException",
                    "Requested resource not found: Index ghost for table tab");
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("tab")
                            .attributeDefinitions(a -> a.attributeName("h").attributeType(ScalarAttributeType.S))
                            .globalSecondaryIndexUpdates(createH)
                            .deletionProtectionEnabled(true)),
                    "DeletionProtection modification must be the only operation in the request");
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("tab").globalSecondaryIndexUpdates(createH)),
                    "One or more parameter values were invalid: Some index key attributes are not defined in "
                            + "AttributeDefinitions. Keys: [h], AttributeDefinitions: []");
            assertValidation(
                    () -> c.updateTable(b -> b.tableName("tab")
                            .attributeDefinitions(a -> a.attributeName("h").attributeType(ScalarAttributeType.S))
                            .globalSecondaryIndexUpdates(u -> u.create(g -> g.indexName("byH")
                                    .keySchema(k -> k.attributeName("h").keyType(KeyType.HASH))
                                    .projection(p -> p.projectionType(ProjectionType.ALL))
                                    .provisionedThroughput(
                                            p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))))),
                    "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits "
                            + "can be specified for index: byH when BillingMode is PAY_PER_REQUEST");
            TableDescription t = c.describeTable(b -> b.tableName("tab")).table();
            assertThat(t.globalSecondaryIndexes())
                    .extracting(GlobalSecondaryIndexDescription::indexName)
                    .containsExactly("byG");
            assertThat(t.attributeDefinitions()).hasSize(3);
        }
    }

    private static GlobalSecondaryIndexUpdate create(String name, String attribute) {
        return GlobalSecondaryIndexUpdate.builder()
                .create(g -> g.indexName(name)
                        .keySchema(k -> k.attributeName(attribute).keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .build();
    }

    static void createWithGsi(DynamoDbClient c, String name, BillingMode billing) {
        boolean provisioned = billing == BillingMode.PROVISIONED;
        c.createTable(b -> {
            b.tableName(name)
                    .attributeDefinitions(
                            a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                    .keySchema(
                            k -> k.attributeName("PK").keyType(KeyType.HASH),
                            k -> k.attributeName("SK").keyType(KeyType.RANGE))
                    .billingMode(billing)
                    .globalSecondaryIndexes(g -> {
                        g.indexName("byG")
                                .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.ALL));
                        if (provisioned) {
                            g.provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L));
                        }
                    });
            if (provisioned) {
                b.provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L));
            }
        });
    }
}
