package dev.kumiko.server.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Two Kumiko servers in a test, each a region, linked to each other as {@code serve --region R --peer
 * OTHER=URL} links them (the ports are known only once both listen, so the links are made after).
 */
final class Regions {
    static final String EAST = "us-east-1";
    static final String WEST = "eu-west-1";
    /** How long a replicated write may take to show in the other region before a test fails. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private Regions() {}

    /** Links a and b as peers: a is EAST, b is WEST. */
    static void link(TestServer east, TestServer west) {
        east.engine()
                .globalTables()
                .configure(EAST, HttpPeerLink.all(Map.of(WEST, west.endpoint()), null, east.engine()));
        west.engine()
                .globalTables()
                .configure(WEST, HttpPeerLink.all(Map.of(EAST, east.endpoint()), null, west.engine()));
    }

    static void createStreamedTable(DynamoDbClient c, String name) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
    }

    static void addReplica(DynamoDbClient c, String table, String region) {
        c.updateTable(b -> b.tableName(table)
                .replicaUpdates(ReplicationGroupUpdate.builder()
                        .create(CreateReplicationGroupMemberAction.builder()
                                .regionName(region)
                                .build())
                        .build()));
    }

    static void deleteReplica(DynamoDbClient c, String table, String region) {
        c.updateTable(b -> b.tableName(table)
                .replicaUpdates(ReplicationGroupUpdate.builder()
                        .delete(DeleteReplicationGroupMemberAction.builder()
                                .regionName(region)
                                .build())
                        .build()));
    }

    static void put(DynamoDbClient c, String table, String pk, String value) {
        c.putItem(b -> b.tableName(table).item(Map.of("pk", s(pk), "v", s(value))));
    }

    static Map<String, AttributeValue> get(DynamoDbClient c, String table, String pk) {
        return c.getItem(b -> b.tableName(table).key(Map.of("pk", s(pk))).consistentRead(true))
                .item();
    }

    static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    static String valueOf(DynamoDbClient c, String table, String pk) {
        Map<String, AttributeValue> item = get(c, table, pk);
        return item == null || item.isEmpty() ? "" : item.get("v").s();
    }

    /** Polls until the condition holds, failing with what after the deadline. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                assertThat(condition.getAsBoolean())
                        .as(what + " within " + DEADLINE)
                        .isTrue();
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    static List<String> tableNames(DynamoDbClient c) {
        return c.listTables().tableNames();
    }
}
