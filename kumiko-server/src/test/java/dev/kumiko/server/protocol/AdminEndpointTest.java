package dev.kumiko.server.protocol;

import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Kumiko's admin endpoints: sweep TTL now and set the time TTL judges expiry by, over plain HTTP. */
class AdminEndpointTest {
    private static final long START_SECONDS = 1_772_323_200L;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> call(TestServer server, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.endpoint() + path))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long number(HttpResponse<String> r, String member) {
        byte[] b = r.body().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Map<String, Object> json = JsonTree.parseObject(b, 0, b.length);
        return Long.parseLong(((JsonNumber) json.get(member)).text());
    }

    @Test
    void theClockEndpointMovesTtlTimeOnly() {
        ManualClock clock = new ManualClock(START_SECONDS * 1000);
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, clock)) {
            HttpResponse<String> now = call(server, "GET", "/kumiko/admin/clock", null);
            assertThat(now.statusCode()).isEqualTo(200);
            assertThat(number(now, "epochSeconds")).isEqualTo(START_SECONDS);
            assertThat(number(
                            call(server, "POST", "/kumiko/admin/clock", "{\"epochSeconds\": 2000000000}"),
                            "epochMillis"))
                    .isEqualTo(2_000_000_000_000L);
            clock.advanceSeconds(5);
            assertThat(number(call(server, "GET", "/kumiko/admin/clock", null), "epochSeconds"))
                    .as("it runs on with the engine's clock")
                    .isEqualTo(2_000_000_005L);
            assertThat(number(call(server, "POST", "/kumiko/admin/clock", "{\"advanceSeconds\": 10}"), "epochSeconds"))
                    .isEqualTo(2_000_000_015L);
            assertThat(number(call(server, "POST", "/kumiko/admin/clock", "{\"advanceMillis\": 500}"), "epochMillis"))
                    .isEqualTo(2_000_000_015_500L);
            assertThat(number(call(server, "POST", "/kumiko/admin/clock", "{\"reset\": true}"), "epochSeconds"))
                    .isEqualTo(START_SECONDS + 5);
            assertThat(number(call(server, "POST", "/kumiko/admin/clock", "{\"epochMillis\": 1}"), "epochMillis"))
                    .isEqualTo(1);

            HttpResponse<String> two =
                    call(server, "POST", "/kumiko/admin/clock", "{\"epochMillis\": 1, \"reset\": true}");
            assertThat(two.statusCode()).isEqualTo(400);
            assertThat(two.body()).contains("ValidationException");
            assertThat(call(server, "POST", "/kumiko/admin/clock", "").statusCode())
                    .isEqualTo(400);
            assertThat(call(server, "POST", "/kumiko/admin/clock", "{\"advanceSeconds\": 9223372036854775807}")
                            .statusCode())
                    .isEqualTo(400);
            assertThat(call(server, "POST", "/kumiko/admin/nothing", "{}").statusCode())
                    .isEqualTo(404);
            assertThat(call(server, "GET", "/", null).body()).startsWith("healthy");
        }
    }

    @Test
    void sweepingOverHttpDeletesExpiredConnectionsWithTheServiceMarker() {
        ManualClock clock = new ManualClock(START_SECONDS * 1000);
        try (TestServer server = TestServer.start(
                        TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0), clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            String table = "connections";
            Txn.createHashTable(c, table);
            c.updateTable(b -> b.tableName(table)
                    .streamSpecification(v -> v.streamEnabled(true).streamViewType(StreamViewType.OLD_IMAGE)));
            c.updateTimeToLive(b -> b.tableName(table)
                    .timeToLiveSpecification(t -> t.attributeName("ttl").enabled(true)));
            c.putItem(b -> b.tableName(table).item(Map.of("pk", s("CONNECTION#abc"), "ttl", n(START_SECONDS + 86400))));

            HttpResponse<String> early = call(server, "POST", "/kumiko/admin/ttl/sweep", null);
            assertThat(early.statusCode()).isEqualTo(200);
            assertThat(number(early, "deletedItems")).isZero();
            call(server, "POST", "/kumiko/admin/clock", "{\"epochSeconds\": " + (START_SECONDS + 86401) + "}");
            assertThat(number(call(server, "POST", "/kumiko/admin/ttl/sweep", null), "deletedItems"))
                    .isEqualTo(1);
            assertThat(c.scan(b -> b.tableName(table)).items()).isEmpty();

            List<Record> records = StreamsClients.all(streams, StreamsClients.streamArn(server, table));
            assertThat(records)
                    .extracting(Record::eventName)
                    .containsExactly(OperationType.INSERT, OperationType.REMOVE);
            assertThat(records.get(1).userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
            assertThat(records.get(1).dynamodb().approximateCreationDateTime().getEpochSecond())
                    .as("stream times keep the engine's clock")
                    .isEqualTo(START_SECONDS);

            clock.advanceSeconds(24 * 3600 + 60);
            assertThat(number(call(server, "POST", "/kumiko/admin/streams/trim", null), "deletedRecords"))
                    .isEqualTo(2);
        }
    }
}
