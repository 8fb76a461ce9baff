package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Two regions as a user starts them: {@code kumiko serve --region R --peer OTHER=URL} twice on this
 * machine. A bad --peer is one line and exit 2; a table made global in one region gets its items in
 * the other, and a write there comes back. The short multi-region smoke test CI runs.
 */
@Tag("slow") // starts two `kumiko serve` JVMs
class ServePeersTest {
    @TempDir
    Path dir;

    @Test
    void aBadPeerIsAUsageError() throws Exception {
        try (CliProcess cli =
                CliProcess.start(dir.resolve("logs"), "serve", "--in-memory", "--port", "0", "--peer", "eu-west-1")) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(cli.stderr().strip())
                    .isEqualTo(
                            "--peer must be REGION=URL, e.g. --peer eu-west-1=http://127.0.0.1:8001, not 'eu-west-1'");
        }
    }

    @Test
    void twoServersReplicateATable() throws Exception {
        int eastPort = freePort();
        int westPort = freePort();
        try (CliProcess east = CliProcess.start(
                        dir.resolve("east"),
                        "serve",
                        "--in-memory",
                        "--port",
                        Integer.toString(eastPort),
                        "--region",
                        "us-east-1",
                        "--peer",
                        "eu-west-1=http://127.0.0.1:" + westPort);
                CliProcess west = CliProcess.start(
                        dir.resolve("west"),
                        "serve",
                        "--in-memory",
                        "--port",
                        Integer.toString(westPort),
                        "--region",
                        "eu-west-1",
                        "--peer",
                        "us-east-1=http://127.0.0.1:" + eastPort)) {
            east.awaitListening();
            west.awaitListening();
            try (DynamoDbClient e = client(eastPort, "us-east-1");
                    DynamoDbClient w = client(westPort, "eu-west-1")) {
                e.createTable(b -> b.tableName("smoke")
                        .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                        .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                        .billingMode("PAY_PER_REQUEST")
                        .streamSpecification(s -> s.streamEnabled(true).streamViewType("NEW_AND_OLD_IMAGES")));
                e.putItem(b -> b.tableName("smoke").item(Map.of("pk", s("before"))));
                e.updateTable(b -> b.tableName("smoke").replicaUpdates(u -> u.create(c -> c.regionName("eu-west-1"))));
                awaitItem(w, "before");
                w.putItem(b -> b.tableName("smoke").item(Map.of("pk", s("from-west"))));
                awaitItem(e, "from-west");
            }
        }
    }

    private static void awaitItem(DynamoDbClient c, String pk) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            boolean found;
            try {
                found = c.getItem(b -> b.tableName("smoke").key(Map.of("pk", s(pk))))
                        .hasItem();
            } catch (software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException notYet) {
                found = false;
            }
            if (found) {
                return;
            }
            assertThat(System.nanoTime()).as(pk + " replicated within 30 s").isLessThan(deadline);
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
                .build();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
