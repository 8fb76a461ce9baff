package dev.kumiko.server.replication;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.replication.Regions.EAST;
import static dev.kumiko.server.replication.Regions.WEST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.ReplicaAutoScalingDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicaStatus;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableAutoScalingDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateReplicationGroupMemberAction;

/** Global tables (2019.11.21) between two Kumiko servers on the memory store, through the SDK. */
class GlobalTablesTest {
    static TestServer east;
    static TestServer west;
    static DynamoDbClient e;
    static DynamoDbClient w;

    @BeforeAll
    static void start() {
        east = TestServer.start(TestServer.StoreKind.MEMORY);
        west = TestServer.start(TestServer.StoreKind.MEMORY);
        Regions.link(east, west);
        e = east.newClient(EAST);
        w = west.newClient(WEST);
    }

    @AfterAll
    static void stop() {
        e.close();
        w.close();
        east.close();
        west.close();
    }

    @Test
    void aReplicaOfATableWithItemsGetsTheItemsAndWritesFlowBothWays() {
        Regions.createStreamedTable(e, "orders");
        for (int i = 0; i < 250; i++) {
            Regions.put(e, "orders", "k" + i, "v" + i);
        }
        Regions.addReplica(e, "orders", WEST);

        TableDescription d = e.describeTable(b -> b.tableName("orders")).table();
        assertThat(d.globalTableVersion()).isEqualTo("2019.11.21");
        assertThat(d.replicas()).extracting(ReplicaDescription::regionName).containsExactly(WEST);
        Regions.await("the backfill", () -> replicaStatus(e, "orders", WEST) == ReplicaStatus.ACTIVE);
        Regions.await(
                "the 250 items in the west",
                () -> w.scan(b -> b.tableName("orders")).count() == 250);
        assertThat(Regions.valueOf(w, "orders", "k17")).isEqualTo("v17");
        Regions.await(
                "the west's view of the replicas", () -> replicaStatus(w, "orders", EAST) == ReplicaStatus.ACTIVE);

        Regions.put(e, "orders", "from-east", "1");
        Regions.put(w, "orders", "from-west", "2");
        Regions.await(
                "east's write in the west",
                () -> Regions.valueOf(w, "orders", "from-east").equals("1"));
        Regions.await(
                "west's write in the east",
                () -> Regions.valueOf(e, "orders", "from-west").equals("2"));

        // The lag of the east's shipments to the west, as CloudWatch names it.
        assertThat(new dev.kumiko.server.metrics.ServerMetrics(east.engine()).scrape())
                .containsPattern("(?m)^dynamodb_ReplicationLatency_milliseconds\\{ReceivingRegion=\"eu-west-1\","
                        + "TableName=\"orders\",?\\} [0-9.E]+$");

        e.deleteItem(b -> b.tableName("orders").key(Map.of("pk", Regions.s("k3"))));
        Regions.await(
                "east's delete in the west",
                () -> Regions.valueOf(w, "orders", "k3").isEmpty());
        // A replicated write appears in the receiving region's stream too.
        assertThat(w.describeTable(b -> b.tableName("orders")).table().latestStreamArn())
                .isNotNull();
    }

    @Test
    void replicaAutoScalingIsDescribedAsForATableWithoutPoliciesAndCannotBeTurnedOn() {
        Regions.createStreamedTable(e, "scaled");
        TableAutoScalingDescription alone =
                e.describeTableReplicaAutoScaling(b -> b.tableName("scaled")).tableAutoScalingDescription();
        assertThat(alone.tableName()).isEqualTo("scaled");
        assertThat(alone.tableStatusAsString()).isEqualTo("ACTIVE");
        assertThat(alone.replicas()).isEmpty();

        Regions.addReplica(e, "scaled", WEST);
        Regions.await("the replica", () -> replicaStatus(e, "scaled", WEST) == ReplicaStatus.ACTIVE);
        TableAutoScalingDescription global =
                e.updateTableReplicaAutoScaling(b -> b.tableName("scaled")).tableAutoScalingDescription();
        assertThat(global.replicas())
                .extracting(ReplicaAutoScalingDescription::regionName)
                .containsExactlyInAnyOrder(EAST, WEST);
        assertThat(global.replicas())
                .allSatisfy(r -> assertThat(r.replicaProvisionedWriteCapacityAutoScalingSettings())
                        .isNull());

        assertValidation(
                () -> e.updateTableReplicaAutoScaling(b -> b.tableName("scaled")
                        .provisionedWriteCapacityAutoScalingUpdate(
                                u -> u.minimumUnits(1L).maximumUnits(10L))),
                "ProvisionedWriteCapacityAutoScalingUpdate: Kumiko does not support auto scaling;"
                        + " set provisioned capacity with UpdateTable");
        assertThatThrownBy(() -> e.describeTableReplicaAutoScaling(b -> b.tableName("no-such-table")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("Requested resource not found: Table: no-such-table not found");
    }

    @Test
    void conflictingConcurrentWritesConverge() throws InterruptedException {
        Regions.createStreamedTable(e, "counters");
        Regions.addReplica(e, "counters", WEST);
        Regions.await("the replica", () -> replicaStatus(e, "counters", WEST) == ReplicaStatus.ACTIVE);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (DynamoDbClient c : List.of(e, w)) {
            String who = c == e ? "east" : "west";
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException ex) {
                    return;
                }
                for (int i = 0; i < 100; i++) {
                    Regions.put(c, "counters", "k" + (i % 5), who + "-" + i);
                }
            });
            t.start();
            writers.add(t);
        }
        go.countDown();
        for (Thread t : writers) {
            t.join();
        }
        for (int k = 0; k < 5; k++) {
            String key = "k" + k;
            Regions.await(
                    "both regions holding the same " + key,
                    () -> !Regions.valueOf(e, "counters", key).isEmpty()
                            && Regions.valueOf(e, "counters", key).equals(Regions.valueOf(w, "counters", key)));
        }
    }

    @Test
    void aDeletedReplicaTakesItsTableWithIt() {
        Regions.createStreamedTable(e, "gone");
        Regions.addReplica(e, "gone", WEST);
        Regions.await("the replica", () -> replicaStatus(e, "gone", WEST) == ReplicaStatus.ACTIVE);
        assertValidation(
                () -> w.deleteTable(b -> b.tableName("gone")),
                "Table gone has replicas: delete them with UpdateTable ReplicaUpdates Delete first (Kumiko does not "
                        + "delete a global table's replica by DeleteTable)");
        assertValidation(
                () -> e.updateTable(b -> b.tableName("gone").streamSpecification(s -> s.streamEnabled(false))),
                "Table gone has replicas: its stream stays enabled with StreamViewType NEW_AND_OLD_IMAGES while it "
                        + "does");
        Regions.deleteReplica(e, "gone", WEST);
        assertThat(e.describeTable(b -> b.tableName("gone")).table().replicas()).isEmpty();
        Regions.await("the west's table gone", () -> !Regions.tableNames(w).contains("gone"));
        // The east keeps its table, no longer global: its writes go nowhere.
        Regions.put(e, "gone", "k", "v");
        assertThat(Regions.valueOf(e, "gone", "k")).isEqualTo("v");
    }

    @Test
    void replicaUpdatesAreRefusedAsDynamoDbRefusesThem() {
        e.createTable(b -> b.tableName("plain")
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .billingMode("PAY_PER_REQUEST"));
        assertValidation(
                () -> Regions.addReplica(e, "plain", WEST),
                "Table plain must have DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES to add a "
                        + "replica");
        Regions.createStreamedTable(e, "rules");
        assertValidation(
                () -> Regions.addReplica(e, "rules", "ap-south-1"),
                "Region ap-south-1 is not a peer of this Kumiko region (start it with --peer ap-south-1=URL)");
        assertValidation(
                () -> Regions.addReplica(e, "rules", EAST), "The replica region us-east-1 is this table's own region");
        assertValidation(
                () -> e.updateTable(b -> b.tableName("rules").replicaUpdates(create(WEST), create("ap-south-1"))),
                "One or more parameter values were invalid: Only one replica update is allowed per request");
        assertValidation(
                () -> e.updateTable(b -> b.tableName("rules")
                        .replicaUpdates(ReplicationGroupUpdate.builder()
                                .update(UpdateReplicationGroupMemberAction.builder()
                                        .regionName(WEST)
                                        .build())
                                .build())),
                "ReplicaUpdates Update is not supported by Kumiko yet: a replica has its table's settings");
        assertValidation(
                () -> e.updateTable(b -> b.tableName("rules").multiRegionConsistency("STRONG")),
                "MultiRegionConsistency and GlobalTableWitnessUpdates (multi-region strong consistency) are not "
                        + "supported by Kumiko yet");
        assertValidation(
                () -> Regions.deleteReplica(e, "rules", WEST),
                "Replica specified in the Replica Update or Replica Delete action of the request was not found: "
                        + WEST);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Regions.addReplica(e, "missing", WEST))
                .isInstanceOf(ResourceNotFoundException.class);
        // Nothing of the refused requests was made in the west.
        assertThat(Regions.tableNames(w)).doesNotContain("plain", "rules", "missing");
    }

    private static ReplicationGroupUpdate create(String region) {
        return ReplicationGroupUpdate.builder()
                .create(CreateReplicationGroupMemberAction.builder()
                        .regionName(region)
                        .build())
                .build();
    }

    static ReplicaStatus replicaStatus(DynamoDbClient c, String table, String region) {
        for (ReplicaDescription r :
                c.describeTable(b -> b.tableName(table)).table().replicas()) {
            if (r.regionName().equals(region)) {
                return r.replicaStatus();
            }
        }
        return ReplicaStatus.UNKNOWN_TO_SDK_VERSION;
    }
}
