package dev.kumiko.server.backups;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** A table with a GSI and an LSI, and waits and full reads that backup tests compare with. */
final class BackupFixtures {
    static final Duration WAIT_MAX = Duration.ofSeconds(30);

    private BackupFixtures() {}

    /** PK/SK table; GSI "byColor" on color/SK (KEYS_ONLY... ALL), LSI "bySize" on PK/size. */
    static void createIndexedTable(DynamoDbClient c, String name) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("color").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("size").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("byColor")
                        .keySchema(
                                k -> k.attributeName("color").keyType(KeyType.HASH),
                                k -> k.attributeName("SK").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .localSecondaryIndexes(l -> l.indexName("bySize")
                        .keySchema(
                                k -> k.attributeName("PK").keyType(KeyType.HASH),
                                k -> k.attributeName("size").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    static Map<String, AttributeValue> item(String pk, String sk, String color, long size) {
        return Map.of(
                "PK",
                s(pk),
                "SK",
                s(sk),
                "color",
                s(color),
                "size",
                AttributeValue.builder().n(Long.toString(size)).build());
    }

    static void put(DynamoDbClient c, String table, Map<String, AttributeValue> item) {
        c.putItem(b -> b.tableName(table).item(item));
    }

    /** Every item of the table, or of one of its indexes, in a stable order. */
    static List<Map<String, AttributeValue>> scanAll(DynamoDbClient c, String table, String index) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        c.scanPaginator(b -> b.tableName(table).indexName(index).consistentRead(index == null ? true : null))
                .items()
                .forEach(out::add);
        out.sort(Comparator.comparing(Map::toString));
        return out;
    }

    static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + WAIT_MAX.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            sleep(50);
        }
    }

    static void awaitBackup(DynamoDbClient c, String arn) {
        await(
                "backup " + arn,
                () -> c.describeBackup(b -> b.backupArn(arn))
                                .backupDescription()
                                .backupDetails()
                                .backupStatus()
                        == BackupStatus.AVAILABLE);
    }

    static void awaitActive(DynamoDbClient c, String table) {
        await(
                "table " + table,
                () -> c.describeTable(b -> b.tableName(table)).table().tableStatus() == TableStatus.ACTIVE);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
