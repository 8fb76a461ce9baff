package dev.kumiko.server.console;

import static dev.kumiko.server.console.ChatSeed.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.metrics.RequestLog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * GET /metrics scraped as Prometheus would, after real requests: DynamoDB's CloudWatch names per
 * table and operation, and the age of unread stream records; the request log's lines; and the
 * console's answers when it is off.
 */
class MetricsEndpointTest {
    static final String TABLE = "Metered";
    final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(ConsoleServer server, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(server.endpoint() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The value of the one series with exactly these labels; fails when there is none. */
    private static double value(String scrape, String series) {
        Matcher m =
                Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
        assertThat(m.find()).as(series + " in\n" + scrape).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static String labels(String operation) {
        return "{Operation=\"" + operation + "\",TableName=\"" + TABLE + "\"}";
    }

    private static void createTable(ConsoleServer server) {
        server.client.createTable(b -> b.tableName(TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("id")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("id")
                        .keyType(KeyType.HASH)
                        .build())
                .streamSpecification(sp -> sp.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)));
    }

    @Test
    void cloudWatchMetricsPerTableAndOperation(@TempDir Path dir) throws Exception {
        Path logFile = dir.resolve("requests.log");
        try (ConsoleServer server =
                new ConsoleServer(ConsolePaths.Access.ON, null, RequestLog.open(logFile.toString()))) {
            createTable(server);
            server.client.putItem(b -> b.tableName(TABLE).item(Map.of("id", s("a"), "body", s("x".repeat(1500)))));
            assertThatThrownBy(() -> server.client.putItem(b -> b.tableName(TABLE)
                            .item(Map.of("id", s("a")))
                            .conditionExpression("attribute_not_exists(id)")))
                    .isInstanceOf(ConditionalCheckFailedException.class);
            server.client.query(b -> b.tableName(TABLE)
                    .keyConditionExpression("id = :a")
                    .expressionAttributeValues(Map.of(":a", s("a"))));
            assertThatThrownBy(() -> server.client.getItem(
                            b -> b.tableName("NoSuchTable").key(Map.of("id", s("a")))))
                    .isInstanceOf(ResourceNotFoundException.class);

            HttpResponse<String> r = get(server, "/metrics");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type").orElseThrow()).startsWith("text/plain; version=0.0.4");
            String m = r.body();
            assertThat(value(m, "dynamodb_SuccessfulRequestLatency_seconds_count" + labels("PutItem")))
                    .isEqualTo(1);
            assertThat(m)
                    .contains("dynamodb_SuccessfulRequestLatency_seconds_bucket{Operation=\"Query\",TableName=\""
                            + TABLE + "\",le=\"0.001\"}");
            // 1,500 bytes of body: a 2 KB item is 2 WCU; the failed conditional put is charged the
            // existing item's 2 WCU too, as DynamoDB consumes capacity for it.
            assertThat(value(m, "dynamodb_ConsumedWriteCapacityUnits_total" + labels("PutItem")))
                    .isEqualTo(4);
            assertThat(value(m, "dynamodb_ConsumedReadCapacityUnits_total" + labels("Query")))
                    .isEqualTo(0.5);
            assertThat(value(m, "dynamodb_ConditionalCheckFailedRequests_total" + labels("PutItem")))
                    .isEqualTo(1);
            // A series appears once it has a value: none for errors PutItem never had, nor for
            // write units a Query never consumed.
            assertThat(m)
                    .doesNotContain("dynamodb_UserErrors_total" + labels("PutItem"))
                    .doesNotContain("dynamodb_ConsumedWriteCapacityUnits_total" + labels("Query"))
                    .doesNotContain("dynamodb_ThrottledRequests_total")
                    .doesNotContain("dynamodb_SystemErrors_total");
            // The JVM's and the process's own metrics, through Micrometer's binders.
            assertThat(m)
                    .contains(
                            "jvm_memory_used_bytes{area=\"heap\",id=\"",
                            "jvm_gc_",
                            "jvm_threads_live_threads ",
                            "jvm_classes_loaded_classes ",
                            "process_cpu_usage ",
                            "process_uptime_seconds ",
                            "process_files_open_files ",
                            "system_cpu_count ");
            assertThat(value(m, "dynamodb_ReturnedItemCount_sum" + labels("Query")))
                    .isEqualTo(1);
            // A table that does not exist gets no series of its own.
            assertThat(value(m, "dynamodb_UserErrors_total{Operation=\"GetItem\",TableName=\"\"}"))
                    .isEqualTo(1);
            assertThat(m).doesNotContain("NoSuchTable");
            String age = "kumiko_streams_OldestUnreadRecordAge_seconds{TableName=\"" + TABLE + "\"}";
            assertThat(value(m, age)).as("one record not read yet").isPositive();

            readWholeStream(server);
            assertThat(value(get(server, "/metrics").body(), age))
                    .as("every record read")
                    .isZero();
        }
        List<String> lines = Files.readAllLines(logFile);
        // Five requests above, then DescribeTable and the three Streams calls of readWholeStream.
        assertThat(lines).hasSize(5 + 4);
        assertThat(lines.get(1))
                .matches("time=\\S+Z op=PutItem table=" + TABLE + " status=200 latency_ms=\\d+\\.\\d{3} rcu=0 wcu=2");
        assertThat(lines.get(2)).contains("op=PutItem", "status=400", "error=ConditionalCheckFailedException");
        assertThat(lines.get(3)).contains("op=Query", "rcu=0.5", "wcu=0");
        assertThat(lines.get(4)).contains("op=GetItem table=NoSuchTable status=400", "error=ResourceNotFoundException");
        assertThat(lines.get(8)).as("the table a GetRecords read").contains("op=GetRecords table=" + TABLE);
    }

    private static void readWholeStream(ConsoleServer server) {
        String arn =
                server.client.describeTable(b -> b.tableName(TABLE)).table().latestStreamArn();
        try (DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("d", "d")))
                .build()) {
            String shard = streams.describeStream(b -> b.streamArn(arn))
                    .streamDescription()
                    .shards()
                    .get(0)
                    .shardId();
            String it = streams.getShardIterator(
                            b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
            String from = it;
            assertThat(streams.getRecords(b -> b.shardIterator(from)).records()).hasSize(1);
        }
    }

    @Test
    void theConsoleIsServedOnlyWhenOn() throws Exception {
        try (ConsoleServer server = new ConsoleServer(ConsolePaths.Access.ON, null, null)) {
            HttpResponse<String> page = get(server, "/console/");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>Kumiko console</title>");
            assertThat(get(server, "/console").statusCode()).isEqualTo(301);
            assertThat(get(server, "/console/../pom.xml").statusCode()).isEqualTo(404);
            assertThat(get(server, "/console/api/model").body()).isEqualTo("{\"entities\":[]}");
            assertThat(get(server, "/console/api/hot-keys").body())
                    .contains("\"partitionWriteUnitsPerSecondMax\":1000");
            assertThat(get(server, "/").body())
                    .startsWith("healthy: " + server.endpoint().getAuthority());
        }
        try (ConsoleServer server = new ConsoleServer(ConsolePaths.Access.OFF, null, null)) {
            HttpResponse<String> off = get(server, "/console/");
            assertThat(off.statusCode()).isEqualTo(404);
            assertThat(off.body()).contains("--console=off");
            assertThat(get(server, "/metrics").statusCode()).isEqualTo(200);
        }
        try (ConsoleServer server = new ConsoleServer(ConsolePaths.Access.SIGV4, null, null)) {
            HttpResponse<String> refused = get(server, "/console/api/hot-keys");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("--auth=sigv4");
        }
    }
}
