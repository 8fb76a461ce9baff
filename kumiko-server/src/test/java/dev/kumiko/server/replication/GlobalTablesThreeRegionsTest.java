package dev.kumiko.server.replication;

import static dev.kumiko.server.replication.Regions.EAST;
import static dev.kumiko.server.replication.Regions.WEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicaStatus;

/**
 * Three regions: a third replica added to a global table hears from both others, each region's
 * writes reach the two others, and every region lists the two others as its replicas.
 */
class GlobalTablesThreeRegionsTest {
    static final String SOUTH = "ap-south-1";

    @Test
    void everyRegionsWritesReachTheTwoOthers() {
        try (TestServer east = TestServer.start(TestServer.StoreKind.MEMORY);
                TestServer west = TestServer.start(TestServer.StoreKind.MEMORY);
                TestServer south = TestServer.start(TestServer.StoreKind.MEMORY)) {
            Map<String, TestServer> regions = new LinkedHashMap<>();
            regions.put(EAST, east);
            regions.put(WEST, west);
            regions.put(SOUTH, south);
            regions.forEach((region, server) -> {
                Map<String, URI> peers = new LinkedHashMap<>();
                regions.forEach((other, s) -> {
                    if (!other.equals(region)) {
                        peers.put(other, s.endpoint());
                    }
                });
                server.engine().globalTables().configure(region, HttpPeerLink.all(peers, null, server.engine()));
            });
            DynamoDbClient e = east.client();
            Regions.createStreamedTable(e, "trio");
            Regions.put(e, "trio", "first", "0");
            Regions.addReplica(e, "trio", WEST);
            Regions.await(
                    "the west replica", () -> GlobalTablesTest.replicaStatus(e, "trio", WEST) == ReplicaStatus.ACTIVE);
            Regions.put(west.client(), "trio", "from-west-early", "1");
            Regions.addReplica(e, "trio", SOUTH);
            Regions.await(
                    "the south replica",
                    () -> GlobalTablesTest.replicaStatus(e, "trio", SOUTH) == ReplicaStatus.ACTIVE);

            Regions.put(west.client(), "trio", "from-west", "2");
            Regions.put(south.client(), "trio", "from-south", "3");
            for (TestServer s : List.of(east, west, south)) {
                for (String[] kv : List.of(
                        new String[] {"first", "0"},
                        new String[] {"from-west-early", "1"},
                        new String[] {"from-west", "2"},
                        new String[] {"from-south", "3"})) {
                    Regions.await(
                            kv[0] + " in every region",
                            () -> Regions.valueOf(s.client(), "trio", kv[0]).equals(kv[1]));
                }
            }
            Regions.await(
                    "the south replica ACTIVE in the west's view",
                    () -> GlobalTablesTest.replicaStatus(west.client(), "trio", SOUTH) == ReplicaStatus.ACTIVE);
            assertThat(south.client()
                            .describeTable(b -> b.tableName("trio"))
                            .table()
                            .replicas())
                    .extracting(ReplicaDescription::regionName)
                    .containsExactlyInAnyOrder(EAST, WEST);
        }
    }
}
