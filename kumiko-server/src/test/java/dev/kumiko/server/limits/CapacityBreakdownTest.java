package dev.kumiko.server.limits;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * ReturnConsumedCapacity=INDEXES: a write costs the table and every index whose entry it changes
 * (an index key change is a delete plus a put), a read of an index is charged to that index.
 */
class CapacityBreakdownTest {
    private static final String TABLE = "billing";
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("l").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("byG")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .localSecondaryIndexes(l -> l.indexName("byL")
                        .keySchema(
                                k -> k.attributeName("PK").keyType(KeyType.HASH),
                                k -> k.attributeName("l").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static final Map<String, AttributeValue> KEY = Map.of("PK", s("p"), "SK", s("1"));

    @Test
    void writesAreChargedToTheTableAndEveryIndexTheyChange() {
        ConsumedCapacity put = c.putItem(b -> b.tableName(TABLE)
                        .item(Map.of("PK", s("p"), "SK", s("1"), "g", s("g1"), "l", s("l1"), "x", s("a")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertThat(put.capacityUnits()).isEqualTo(3.0);
        assertThat(put.writeCapacityUnits()).isEqualTo(3.0);
        assertThat(put.table())
                .isEqualTo(Capacity.builder()
                        .capacityUnits(1.0)
                        .writeCapacityUnits(1.0)
                        .build());
        assertThat(put.globalSecondaryIndexes()).isEqualTo(Map.of("byG", units(1.0)));
        assertThat(put.localSecondaryIndexes()).isEqualTo(Map.of("byL", units(1.0)));

        ConsumedCapacity moveGsiKey = update("SET g = :v", "g2");
        assertThat(moveGsiKey.capacityUnits()).isEqualTo(3.0);
        assertThat(moveGsiKey.globalSecondaryIndexes()).isEqualTo(Map.of("byG", units(2.0)));
        assertThat(moveGsiKey.hasLocalSecondaryIndexes()).isFalse();

        ConsumedCapacity nonKey = update("SET x = :v", "b");
        assertThat(nonKey.capacityUnits()).isEqualTo(2.0);
        assertThat(nonKey.globalSecondaryIndexes()).isEqualTo(Map.of("byG", units(1.0)));

        ConsumedCapacity delete = c.deleteItem(
                        b -> b.tableName(TABLE).key(KEY).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertThat(delete.capacityUnits()).isEqualTo(3.0);
        assertThat(delete.localSecondaryIndexes()).isEqualTo(Map.of("byL", units(1.0)));

        ConsumedCapacity total = c.putItem(b -> b.tableName(TABLE)
                        .item(Map.of("PK", s("p"), "SK", s("2"), "g", s("g1")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(total.capacityUnits()).isEqualTo(2.0);
        assertThat(total.table()).isNull();
        assertThat(total.writeCapacityUnits()).isNull();
    }

    @Test
    void anIndexQueryIsChargedToTheIndex() {
        c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("q"), "SK", s("1"), "g", s("gq"))));
        ConsumedCapacity q = c.query(b -> b.tableName(TABLE)
                        .indexName("byG")
                        .keyConditionExpression("g = :g")
                        .expressionAttributeValues(Map.of(":g", s("gq")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertThat(q.capacityUnits()).isEqualTo(0.5);
        assertThat(q.readCapacityUnits()).isEqualTo(0.5);
        assertThat(q.table().capacityUnits()).isEqualTo(0.0);
        assertThat(q.globalSecondaryIndexes())
                .isEqualTo(Map.of(
                        "byG",
                        Capacity.builder()
                                .capacityUnits(0.5)
                                .readCapacityUnits(0.5)
                                .build()));
    }

    /**
     * A batch's units are summed per table and per index over its items: three items each written to
     * a table, three GSIs and an LSI (more indexes than a tally first makes room for).
     */
    @Test
    void aBatchSumsEachIndexOverItsItems() {
        String table = "billing-batch";
        c.createTable(b -> b.tableName(table)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("l").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g1").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g2").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g3").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(gsi("byG1", "g1"), gsi("byG2", "g2"), gsi("byG3", "g3"))
                .localSecondaryIndexes(l -> l.indexName("byL")
                        .keySchema(
                                k -> k.attributeName("PK").keyType(KeyType.HASH),
                                k -> k.attributeName("l").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        List<WriteRequest> puts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Map<String, AttributeValue> item = Map.of(
                    "PK",
                    s("p"),
                    "SK",
                    s("s" + i),
                    "l",
                    s("l" + i),
                    "g1",
                    s("a" + i),
                    "g2",
                    s("b" + i),
                    "g3",
                    s("c" + i));
            puts.add(WriteRequest.builder().putRequest(r -> r.item(item)).build());
        }
        List<ConsumedCapacity> consumed = c.batchWriteItem(
                        b -> b.requestItems(Map.of(table, puts)).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertThat(consumed).hasSize(1);
        ConsumedCapacity batch = consumed.get(0);
        assertThat(batch.tableName()).isEqualTo(table);
        assertThat(batch.capacityUnits()).isEqualTo(15.0);
        assertThat(batch.table()).isEqualTo(units(3.0));
        assertThat(batch.globalSecondaryIndexes())
                .isEqualTo(Map.of("byG1", units(3.0), "byG2", units(3.0), "byG3", units(3.0)));
        assertThat(batch.localSecondaryIndexes()).isEqualTo(Map.of("byL", units(3.0)));
    }

    private static GlobalSecondaryIndex gsi(String name, String key) {
        return GlobalSecondaryIndex.builder()
                .indexName(name)
                .keySchema(k -> k.attributeName(key).keyType(KeyType.HASH))
                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                .build();
    }

    private static ConsumedCapacity update(String expression, String value) {
        return c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .updateExpression(expression)
                        .expressionAttributeValues(Map.of(":v", s(value)))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
    }

    private static Capacity units(double units) {
        return Capacity.builder().capacityUnits(units).writeCapacityUnits(units).build();
    }
}
