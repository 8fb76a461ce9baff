package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A region killed with -9 while the other takes writes loses none of them: once it restarts on its
 * data directory, the other region's shipper, which kept its position while the peer was gone,
 * catches it up. Two `kumiko serve` processes on RocksDB.
 */
@Tag("slow") // starts three `kumiko serve` JVMs
class GlobalTablesKillTest {
    @TempDir
    Path dir;

    @Test
    void aKilledRegionCatchesUpWithEveryAcknowledgedWrite() throws Exception {
        int eastPort = freePort();
        int westPort = freePort();
        Path westData = dir.resolve("west-data");
        try (CliProcess east = serve("east", eastPort, "us-east-1", "eu-west-1", westPort);
                CliProcess west1 = serve(westData, westPort, "eu-west-1", "us-east-1", eastPort)) {
            east.awaitListening();
            west1.awaitListening();
            try (DynamoDbClient e = client(eastPort, "us-east-1")) {
                e.createTable(b -> b.tableName("kill")
                        .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                        .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                        .billingMode("PAY_PER_REQUEST")
                        .streamSpecification(s -> s.streamEnabled(true).streamViewType("NEW_AND_OLD_IMAGES")));
                e.updateTable(b -> b.tableName("kill").replicaUpdates(u -> u.create(c -> c.regionName("eu-west-1"))));
                List<String> acknowledged = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    String pk = "w" + i;
                    e.putItem(b -> b.tableName("kill").item(Map.of("pk", s(pk))));
                    acknowledged.add(pk);
                    if (i == 100) {
                        west1.destroyForcibly(); // kill -9, mid-stream
                    }
                }
                try (CliProcess west2 = serve(westData, westPort, "eu-west-1", "us-east-1", eastPort);
                        DynamoDbClient w = client(westPort, "eu-west-1")) {
                    west2.awaitListening();
                    for (String pk : acknowledged) {
                        awaitItem(w, pk);
                    }
                    assertThat(w.scan(b -> b.tableName("kill")).count()).isEqualTo(300);
                }
            }
        }
    }

    private CliProcess serve(String name, int port, String region, String peer, int peerPort) throws Exception {
        return serve(dir.resolve(name + "-data"), port, region, peer, peerPort);
    }

    private CliProcess serve(Path data, int port, String region, String peer, int peerPort) throws Exception {
        return CliProcess.start(
                dir.resolve("logs"),
                "serve",
                "--data-dir",
                data.toString(),
                "--port",
                Integer.toString(port),
                "--region",
                region,
                "--peer",
                peer + "=http://127.0.0.1:" + peerPort);
    }

    private static void awaitItem(DynamoDbClient c, String pk) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!c.getItem(b -> b.tableName("kill").key(Map.of("pk", s(pk)))).hasItem()) {
            assertThat(System.nanoTime())
                    .as(pk + " in the restarted region within 60 s")
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    private static DynamoDbClient client(int port, String region) {
        return DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryPolicy(RetryPolicy.none())
                        .build())
                .build();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
