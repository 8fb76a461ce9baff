package dev.kumiko.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * KumikoContainer on the image built from this clone's distribution archive, against a real Docker
 * engine. Skipped, with the reason, where no engine answers or no archive was built (-Pquick). The
 * containers run on the host's network: the engines CI starts have no bridge network.
 */
@Tag("slow")
class KumikoContainerTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final String UID = "10001";

    private static String image = "";
    /** Why this machine cannot run the tests, or empty: each test is skipped with it (Skipped: 3). */
    private static String skipReason = "";

    @BeforeAll
    static void buildImage() throws Exception {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            skipReason = "no Docker engine answers (DOCKER_HOST or /var/run/docker.sock): KumikoContainer's tests are"
                    + " skipped";
        } else if (!Files.isRegularFile(TestImage.archive())) {
            skipReason = "no " + TestImage.archive() + " to build the image from (mvn -Pquick builds none): skipped";
        } else {
            image = TestImage.build();
        }
    }

    @BeforeEach
    void skipWithoutAnEngine() {
        assumeTrue(skipReason.isEmpty(), skipReason);
    }

    @Test
    void anInMemoryServerAnswersBothClientsAndWritesNothingToDisk() throws Exception {
        try (KumikoContainer kumiko = new KumikoContainer(image).withInMemory().withHostNetwork()) {
            kumiko.start();
            assertThat(kumiko.getEndpoint().toString()).endsWith(":" + kumiko.serverPort());

            DynamoDbClient ddb = kumiko.getDynamoDbClient();
            createTable(ddb, "orders");
            putOrder(ddb, "orders", "o-1", "3");
            assertThat(getOrder(ddb, "orders", "o-1").item()).containsEntry("qty", AttributeValue.fromN("3"));
            GetItemResponse viaAsync = kumiko.getDynamoDbAsyncClient()
                    .getItem(b -> b.tableName("orders").key(key("o-1")).consistentRead(true))
                    .get();
            assertThat(viaAsync.item()).containsEntry("qty", AttributeValue.fromN("3"));

            assertThat(exec(kumiko, "ls", "-A", KumikoContainer.DATA_DIR).getStdout())
                    .isEmpty();
            // The server (PID 1, bin/kumiko execs java) runs as the image's own user, not as root.
            assertThat(exec(kumiko, "cat", "/proc/1/status").getStdout())
                    .containsPattern("(?m)^Uid:\\s+" + UID + "\\s");
        }
    }

    @Test
    void anOnDiskServerKeepsItsTablesWhenTheContainerRestarts() throws Exception {
        try (KumikoContainer kumiko = new KumikoContainer(image).withHostNetwork()) {
            kumiko.start();
            DynamoDbClient ddb = kumiko.getDynamoDbClient();
            createTable(ddb, "orders");
            putOrder(ddb, "orders", "o-1", "7");
            assertThat(exec(kumiko, "ls", "-A", KumikoContainer.DATA_DIR).getStdout())
                    .isNotBlank();

            // The same container, so the same volume /data: a new server process on the same files.
            kumiko.getDockerClient()
                    .restartContainerCmd(kumiko.getContainerId())
                    .withTimeout(30)
                    .exec();
            GetItemResponse after = pollUntilAnswered(ddb, "orders", "o-1");
            assertThat(after.item()).containsEntry("qty", AttributeValue.fromN("7"));
        }
    }

    @Test
    void theImagesHealthCheckFindsTheServerOnThePortItWasGiven() throws Exception {
        try (KumikoContainer kumiko = new KumikoContainer(image).withInMemory().withHostNetwork()) {
            kumiko.start();
            assertThat(kumiko.serverPort()).isNotEqualTo(KumikoContainer.DEFAULT_PORT);
            ExecResult check = exec(kumiko, "/usr/local/bin/kumiko-healthcheck");
            assertThat(check.getExitCode()).as(check.getStderr()).isZero();

            // Docker runs the same check every 10 s and reports the container healthy after the first pass.
            Instant deadline = Instant.now().plus(DEADLINE);
            String status = healthStatus(kumiko);
            while (!"healthy".equals(status) && Instant.now().isBefore(deadline)) {
                Thread.sleep(500);
                status = healthStatus(kumiko);
            }
            assertThat(status).isEqualTo("healthy");
        }
    }

    private static String healthStatus(KumikoContainer kumiko) {
        var health = kumiko.getCurrentContainerInfo().getState().getHealth();
        return health == null ? "none" : String.valueOf(health.getStatus());
    }

    private static ExecResult exec(KumikoContainer kumiko, String... command) throws Exception {
        return kumiko.execInContainer(command);
    }

    /** Polls with a deadline: the server in the restarted container takes a moment to listen again. */
    private static GetItemResponse pollUntilAnswered(DynamoDbClient ddb, String table, String id)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (true) {
            try {
                return getOrder(ddb, table, id);
            } catch (RuntimeException e) {
                if (Instant.now().isAfter(deadline)) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static void createTable(DynamoDbClient ddb, String table) {
        ddb.createTable(b -> b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
    }

    private static void putOrder(DynamoDbClient ddb, String table, String id, String qty) {
        ddb.putItem(
                b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id), "qty", AttributeValue.fromN(qty))));
    }

    private static GetItemResponse getOrder(DynamoDbClient ddb, String table, String id) {
        return ddb.getItem(b -> b.tableName(table).key(key(id)).consistentRead(true));
    }

    private static Map<String, AttributeValue> key(String id) {
        return Map.of("id", AttributeValue.fromS(id));
    }
}
