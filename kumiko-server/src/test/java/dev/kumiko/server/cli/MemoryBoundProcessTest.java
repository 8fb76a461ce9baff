package dev.kumiko.server.cli;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.protocol.WireProtocolTest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@code kumiko serve --in-memory} in a JVM of 128 MB that dies on an OutOfMemoryError (as
 * bin/kumiko runs it), on its default budgets (half the heap for data, a sixteenth for request
 * bodies in flight), filled through the SDK until it refuses writes, then sent a burst of
 * DynamoDB's largest requests, then 160 MB of request bodies held half-sent on open connections.
 * It answers every request (InternalServerError when full, ServiceUnavailable past the bytes in
 * flight), goes on serving reads and deletes, takes writes again after deletes, and never dies.
 */
@Tag("slow") // fills a child JVM's heap through the SDK: tens of seconds
class MemoryBoundProcessTest {
    private static final String TABLE = "bounded";
    private static final int FILL_THREADS = 4;
    private static final int FILL_ITEM_CHARS = 16_000;
    /** 25 x 16 KB a batch: 4,000 batches are 1.6 GB, far past the heap; the fill ends by refusal. */
    private static final int FILL_BATCHES_MAX = 4_000;

    private static final int BURST_THREADS = 8;
    private static final int BURST_REQUESTS = 3;
    /** 25 items of 390,000 characters: a BatchWriteItem of about 9.75 MB. */
    private static final int BURST_ITEM_CHARS = 390_000;

    /** Connections that each send all but the last byte of a 10 MB body, then wait: 160 MB held, past the heap. */
    private static final int HELD_CONNECTIONS = 16;

    private static final int HELD_BODY_BYTES = 10_000_000;

    @TempDir
    Path dir;

    /**
     * ListTables with a body of HELD_BODY_BYTES (JSON whitespace), sent on HELD_CONNECTIONS
     * connections up to its last byte each, so that without the bound in flight the server would
     * hold every body at once; then each is finished. Returns the answers' status codes.
     */
    private static List<Integer> heldBodies(int port) throws IOException {
        byte[] body = ("{" + " ".repeat(HELD_BODY_BYTES - 2) + "}").getBytes(StandardCharsets.US_ASCII);
        byte[] head = ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                        + "X-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: " + WireProtocolTest.AUTH
                        + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        List<Socket> sockets = new ArrayList<>();
        List<Integer> statuses = new ArrayList<>();
        try {
            for (int i = 0; i < HELD_CONNECTIONS; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                sockets.add(socket);
                socket.setSoTimeout((int) Duration.ofSeconds(60).toMillis());
                OutputStream out = socket.getOutputStream();
                out.write(head);
                out.write(body, 0, body.length - 1);
                out.flush();
            }
            for (Socket socket : sockets) {
                socket.getOutputStream().write(body, body.length - 1, 1);
                socket.getOutputStream().flush();
                byte[] line = new byte[12];
                int n = socket.getInputStream().readNBytes(line, 0, line.length);
                assertThat(n).isEqualTo(line.length);
                statuses.add(Integer.parseInt(new String(line, 9, 3, StandardCharsets.US_ASCII)));
            }
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
        return statuses;
    }

    private static DynamoDbClient client(int port) {
        return DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("dummy", "dummy")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofSeconds(60))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryPolicy(RetryPolicy.none())
                        .build())
                .build();
    }

    private static Map<String, AttributeValue> key(String pk, int i) {
        return Map.of("PK", s(pk), "SK", s(String.format("%06d", i)));
    }

    private static List<WriteRequest> puts(String pk, int from, String payload) {
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = from; i < from + Fixtures.BATCH_WRITE_ITEMS_MAX; i++) {
            Map<String, AttributeValue> item = new java.util.HashMap<>(key(pk, i));
            item.put("payload", s(payload));
            writes.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
        }
        return writes;
    }

    /** "500" for a full store, "503" for the bound in flight; any other error fails the test. */
    private static String refusal(AwsServiceException e) {
        if (e.statusCode() == 500) {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InternalServerError");
            assertThat(e.awsErrorDetails().errorMessage()).startsWith("Kumiko's in-memory store is full");
            return "500";
        }
        assertThat(e.statusCode()).as("%s", e).isEqualTo(503);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
        return "503";
    }

    /** BatchWriteItems of one partition until the store is full; returns the batches stored. */
    private static int fillUntilFull(int port, String pk) {
        String payload = "f".repeat(FILL_ITEM_CHARS);
        try (DynamoDbClient c = client(port)) {
            int stored = 0;
            for (int b = 0; b < FILL_BATCHES_MAX; b++) {
                List<WriteRequest> writes = puts(pk, b * Fixtures.BATCH_WRITE_ITEMS_MAX, payload);
                try {
                    assertThat(c.batchWriteItem(r -> r.requestItems(Map.of(TABLE, writes)))
                                    .unprocessedItems())
                            .isEmpty();
                    stored = b + 1;
                } catch (AwsServiceException e) {
                    if (refusal(e).equals("500")) {
                        return stored;
                    }
                }
            }
            throw new AssertionError(pk + ": " + FILL_BATCHES_MAX + " batches stored in a heap of 128 MB");
        }
    }

    private static List<String> burst(int port, int thread) {
        String payload = "b".repeat(BURST_ITEM_CHARS);
        List<String> outcomes = new ArrayList<>();
        try (DynamoDbClient c = client(port)) {
            for (int r = 0; r < BURST_REQUESTS; r++) {
                List<WriteRequest> writes = puts("burst-" + thread, r * Fixtures.BATCH_WRITE_ITEMS_MAX, payload);
                try {
                    c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, writes)));
                    outcomes.add("200");
                } catch (AwsServiceException e) {
                    outcomes.add(refusal(e));
                }
            }
        }
        return outcomes;
    }

    @Test
    void aServerFilledToItsBudgetRefusesWritesAnswersEveryRequestAndNeverDies() throws Exception {
        try (CliProcess cli = CliProcess.start(
                dir.resolve("logs"),
                List.of("-XX:+ExitOnOutOfMemoryError"),
                "serve",
                "--in-memory",
                "--port",
                "0",
                "--ttl-sweep-interval-millis",
                "0")) {
            int port = cli.awaitListening();
            DynamoDbClient c = client(port);
            Fixtures.createTable(c, TABLE);
            ExecutorService pool = Executors.newFixedThreadPool(BURST_THREADS);
            try {
                List<Future<Integer>> fills = new ArrayList<>();
                for (int t = 0; t < FILL_THREADS; t++) {
                    String pk = "fill-" + t;
                    fills.add(pool.submit(() -> fillUntilFull(port, pk)));
                }
                List<Integer> stored = new ArrayList<>();
                for (Future<Integer> f : fills) {
                    stored.add(f.get());
                }
                assertThat(stored.stream().mapToInt(Integer::intValue).sum())
                        .as("batches stored")
                        .isGreaterThan(40);
                assertThat(cli.isAlive()).isTrue();

                List<Future<List<String>>> bursts = new ArrayList<>();
                for (int t = 0; t < BURST_THREADS; t++) {
                    int thread = t;
                    bursts.add(pool.submit(() -> burst(port, thread)));
                }
                for (Future<List<String>> f : bursts) {
                    assertThat(f.get())
                            .as("a full store takes none of the burst")
                            .doesNotContain("200")
                            .hasSize(BURST_REQUESTS);
                }
                assertThat(cli.isAlive())
                        .as("alive after the burst: %s", cli.stderr())
                        .isTrue();
                List<Integer> held = heldBodies(port);
                assertThat(held)
                        .as("answers to the held bodies")
                        .containsOnly(200, 503)
                        .contains(200, 503);
                assertThat(cli.isAlive())
                        .as("alive after the held bodies: %s", cli.stderr())
                        .isTrue();

                // Reads go on.
                int inFill0 = stored.get(0) * Fixtures.BATCH_WRITE_ITEMS_MAX;
                assertThat(c.getItem(b -> b.tableName(TABLE).key(key("fill-0", 0)))
                                .item()
                                .get("payload")
                                .s())
                        .hasSize(FILL_ITEM_CHARS);
                // Query pages end at 1 MB of items: the count is summed over the pages.
                assertThat(c
                                .queryPaginator(b -> b.tableName(TABLE)
                                        .keyConditionExpression("PK = :p")
                                        .select("COUNT")
                                        .expressionAttributeValues(Map.of(":p", s("fill-0"))))
                                .stream()
                                .mapToInt(software.amazon.awssdk.services.dynamodb.model.QueryResponse::count)
                                .sum())
                        .isEqualTo(inFill0);
                // Deletes go on and make room: one partition's items go, and new writes are taken.
                for (int i = 0; i < inFill0; i += Fixtures.BATCH_WRITE_ITEMS_MAX) {
                    List<WriteRequest> deletes = new ArrayList<>();
                    for (int k = i; k < i + Fixtures.BATCH_WRITE_ITEMS_MAX; k++) {
                        Map<String, AttributeValue> doomed = key("fill-0", k);
                        deletes.add(WriteRequest.builder()
                                .deleteRequest(d -> d.key(doomed))
                                .build());
                    }
                    c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, deletes)));
                }
                c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, puts("after", 0, "a".repeat(FILL_ITEM_CHARS)))));
                assertThat(c.getItem(b -> b.tableName(TABLE).key(key("after", 24)))
                                .hasItem())
                        .isTrue();
                assertThat(cli.isAlive()).isTrue();
            } finally {
                pool.shutdownNow();
                c.close();
            }
        }
    }
}
