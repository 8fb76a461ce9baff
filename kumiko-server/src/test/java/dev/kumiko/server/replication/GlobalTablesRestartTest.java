package dev.kumiko.server.replication;

import static dev.kumiko.server.replication.Regions.EAST;
import static dev.kumiko.server.replication.Regions.WEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ReplicaStatus;

/**
 * Two regions on RocksDB: a peer that cannot be reached has its changes kept, and a region that
 * restarts resumes shipping from the position it saved in its store, so the other region catches up
 * with every write it acknowledged.
 */
class GlobalTablesRestartTest {
    TestServer east;
    TestServer west;

    @AfterEach
    void stop() {
        if (east != null) {
            east.close();
        }
        if (west != null) {
            west.close();
        }
    }

    @Test
    void theChangeLogIsKeptPastItsDayForAPeerThatIsAway() {
        dev.kumiko.server.ManualClock clock = new dev.kumiko.server.ManualClock(1_800_000_000_000L);
        east = TestServer.start(TestServer.StoreKind.MEMORY, dev.kumiko.engine.base.EngineSettings.DEFAULTS, clock);
        west = TestServer.start(TestServer.StoreKind.MEMORY);
        Regions.link(east, west);
        DynamoDbClient e = east.client();
        Regions.createStreamedTable(e, "patient");
        Regions.addReplica(e, "patient", WEST);
        Regions.await("the replica", () -> GlobalTablesTest.replicaStatus(e, "patient", WEST) == ReplicaStatus.ACTIVE);
        east.engine()
                .globalTables()
                .configure(EAST, HttpPeerLink.all(Map.of(WEST, URI.create("http://127.0.0.1:9")), null, east.engine()));
        Regions.put(e, "patient", "late", "1");
        // Two days pass: the stream's 24 hours are over, but the west has not had the write yet.
        clock.advanceSeconds(2 * 86_400);
        east.engine().admin().trimStreams();
        Regions.link(east, west);
        Regions.await(
                "the write kept for the west",
                () -> Regions.valueOf(west.client(), "patient", "late").equals("1"));
    }

    @Test
    void writesMadeWhileThePeerWasUnreachableArriveAfterARestart() {
        east = TestServer.start(TestServer.StoreKind.ROCKSDB);
        west = TestServer.start(TestServer.StoreKind.ROCKSDB);
        Regions.link(east, west);
        DynamoDbClient e = east.client();
        Regions.createStreamedTable(e, "ledger");
        Regions.addReplica(e, "ledger", WEST);
        Regions.await("the replica", () -> GlobalTablesTest.replicaStatus(e, "ledger", WEST) == ReplicaStatus.ACTIVE);
        Regions.put(e, "ledger", "before", "1");
        Regions.await(
                "the first write in the west",
                () -> Regions.valueOf(west.client(), "ledger", "before").equals("1"));

        // The west is cut off (a port nothing listens on): the east acknowledges writes and keeps them.
        east.engine()
                .globalTables()
                .configure(EAST, HttpPeerLink.all(Map.of(WEST, URI.create("http://127.0.0.1:9")), null, east.engine()));
        for (int i = 0; i < 40; i++) {
            Regions.put(e, "ledger", "cut-" + i, "v" + i);
        }
        assertThat(Regions.valueOf(west.client(), "ledger", "cut-0")).isEmpty();

        // The east restarts (its ports change, so both links are made again) and ships what it kept.
        east.restart();
        Regions.link(east, west);
        DynamoDbClient w = west.client();
        for (int i = 0; i < 40; i++) {
            String key = "cut-" + i;
            String value = "v" + i;
            Regions.await(
                    key + " in the west",
                    () -> Regions.valueOf(w, "ledger", key).equals(value));
        }
        // And the link works both ways after the restart.
        Regions.put(w, "ledger", "after", "2");
        Regions.await(
                "the west's write in the restarted east",
                () -> Regions.valueOf(east.client(), "ledger", "after").equals("2"));
    }
}
