package dev.kumiko.server.replication;

import static dev.kumiko.server.replication.Regions.EAST;
import static dev.kumiko.server.replication.Regions.WEST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.auth.AccessKey;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Regions that verify signatures (--auth=sigv4): a region signs its calls to a peer with a key the
 * peer knows, and a peer refuses calls signed with a key it does not know.
 */
class GlobalTablesSigV4Test {
    static final Map<String, AccessKey> KEYS = Map.of("AKIAREPL", AccessKey.admin("AKIAREPL", "repl-secret"));

    private static TestServer start() {
        return TestServer.start(
                TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, Clock.SYSTEM, TestServer.Security.sigV4(KEYS));
    }

    @Test
    void signedCallsReplicateAndAnUnknownKeyIsRefused() {
        try (TestServer east = start();
                TestServer west = start();
                DynamoDbClient e = east.newClient(EAST, AwsBasicCredentials.create("AKIAREPL", "repl-secret"));
                DynamoDbClient w = west.newClient(WEST, AwsBasicCredentials.create("AKIAREPL", "repl-secret"))) {
            AccessKey stranger = AccessKey.admin("AKIASTRANGER", "unknown");
            east.engine()
                    .globalTables()
                    .configure(EAST, HttpPeerLink.all(Map.of(WEST, west.endpoint()), stranger, east.engine()));
            Regions.createStreamedTable(e, "signed");
            assertThatThrownBy(() -> Regions.addReplica(e, "signed", WEST))
                    .isInstanceOf(DynamoDbException.class)
                    .hasMessageContaining("Region eu-west-1 refused KumikoCreateReplica")
                    .hasMessageContaining("UnrecognizedClientException");
            assertThat(Regions.tableNames(w)).doesNotContain("signed");

            AccessKey key = KEYS.get("AKIAREPL");
            east.engine()
                    .globalTables()
                    .configure(EAST, HttpPeerLink.all(Map.of(WEST, west.endpoint()), key, east.engine()));
            west.engine()
                    .globalTables()
                    .configure(WEST, HttpPeerLink.all(Map.of(EAST, east.endpoint()), key, west.engine()));
            Regions.put(e, "signed", "a", "1");
            Regions.addReplica(e, "signed", WEST);
            Regions.await(
                    "the backfilled item in the west",
                    () -> Regions.valueOf(w, "signed", "a").equals("1"));
            Regions.put(w, "signed", "b", "2");
            Regions.await(
                    "the west's write in the east",
                    () -> Regions.valueOf(e, "signed", "b").equals("2"));
        }
    }
}
