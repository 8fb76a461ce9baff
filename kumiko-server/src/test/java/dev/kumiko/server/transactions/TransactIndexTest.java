package dev.kumiko.server.transactions;

import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Transactions maintain secondary indexes in the same commit as the items, and what they commit
 * survives a restart (RocksDB).
 */
class TransactIndexTest {
    private static final String TABLE = "txidx";

    private static void createTable(DynamoDbClient c) {
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("owner").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("byOwner")
                        .keySchema(
                                k -> k.attributeName("owner").keyType(KeyType.HASH),
                                k -> k.attributeName("sk").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", s(pk), "sk", s("1"));
    }

    private static List<String> owned(DynamoDbClient c, String owner) {
        return c
                .query(b -> b.tableName(TABLE)
                        .indexName("byOwner")
                        .keyConditionExpression("#o = :o")
                        .expressionAttributeNames(Map.of("#o", "owner"))
                        .expressionAttributeValues(Map.of(":o", s(owner))))
                .items()
                .stream()
                .map(i -> i.get("pk").s())
                .sorted()
                .toList();
    }

    private static TransactWriteItem put(String pk, String owner) {
        return TransactWriteItem.builder()
                .put(p -> p.tableName(TABLE)
                        .item(owner == null ? key(pk) : Map.of("pk", s(pk), "sk", s("1"), "owner", s(owner))))
                .build();
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void indexEntriesCommitWithTheItemsAndSurviveARestart(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            createTable(c);
            var written = c.transactWriteItems(
                            b -> b.transactItems(put("a", "alice"), put("b", "alice"), put("c", null))
                                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                    .consumedCapacity();
            assertThat(owned(c, "alice")).containsExactly("a", "b");
            // Twice a standard write: three items on the table, two entries on the (sparse) index.
            assertThat(written).hasSize(1);
            assertThat(written.get(0).capacityUnits()).isEqualTo(10.0);
            assertThat(written.get(0).table().capacityUnits()).isEqualTo(6.0);
            assertThat(written.get(0).globalSecondaryIndexes().get("byOwner").capacityUnits())
                    .isEqualTo(4.0);

            c.transactWriteItems(b -> b.transactItems(
                    TransactWriteItem.builder()
                            .update(u -> u.tableName(TABLE)
                                    .key(key("a"))
                                    .updateExpression("SET #o = :bob")
                                    .expressionAttributeNames(Map.of("#o", "owner"))
                                    .expressionAttributeValues(Map.of(":bob", s("bob"))))
                            .build(),
                    TransactWriteItem.builder()
                            .delete(d -> d.tableName(TABLE).key(key("b")))
                            .build()));
            assertThat(owned(c, "alice")).isEmpty();
            assertThat(owned(c, "bob")).containsExactly("a");

            assertThatThrownBy(() -> c.transactWriteItems(b -> b.transactItems(
                            put("d", "alice"),
                            TransactWriteItem.builder()
                                    .conditionCheck(cc -> cc.tableName(TABLE)
                                            .key(key("zzz"))
                                            .conditionExpression("attribute_exists(pk)"))
                                    .build())))
                    .isInstanceOf(TransactionCanceledException.class);
            assertThat(owned(c, "alice"))
                    .as("a cancelled transaction writes no index entry")
                    .isEmpty();

            if (kind == TestServer.StoreKind.ROCKSDB) {
                server.restart();
            }
            DynamoDbClient after = server.client();
            assertThat(owned(after, "bob")).containsExactly("a");
            assertThat(owned(after, "alice")).isEmpty();
            assertThat(after.getItem(b -> b.tableName(TABLE).key(key("c"))).hasItem())
                    .isTrue();
            assertThat(after.getItem(b -> b.tableName(TABLE).key(key("b"))).hasItem())
                    .isFalse();
            assertThat(after.getItem(b -> b.tableName(TABLE).key(key("d"))).hasItem())
                    .isFalse();
        }
    }
}
