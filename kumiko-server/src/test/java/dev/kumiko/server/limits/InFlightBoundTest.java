package dev.kumiko.server.limits;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.RawHttp;
import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.protocol.WireProtocolTest;
import dev.kumiko.storage.memory.MemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The server's bound on request bytes in flight, with a budget of 1 MiB: requests whose bodies do
 * not fit beside those held are answered 503 ServiceUnavailable, which the SDKs retry, the others
 * normally; a refused request writes nothing, every byte taken is given back, and the server then
 * serves normally. Which requests are held is made certain with raw connections that send a header
 * part and only part of the body: the server takes a body's bytes when its header part arrives.
 */
class InFlightBoundTest {
    private static final long BUDGET_BYTES = 1L << 20;
    private static final int BODY_BYTES = 400_000;
    private static final String TABLE = "inflight";
    /** How long a wait for the server to take or give back bytes may last before the test fails. */
    private static final long WAIT_MILLIS_MAX = 20_000;

    private TestServer server;
    private DynamoDbClient client;

    @BeforeEach
    void start() {
        server = TestServer.start(new MemoryStore(), ServerLimits.DEFAULTS.withInFlightBytesMax(BUDGET_BYTES));
        client = server.client();
        Fixtures.createTable(client, TABLE);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A PutItem body of exactly bytes bytes, for the item of key sk. */
    private static byte[] putItemBody(String sk, int bytes) {
        String head = "{\"TableName\":\"" + TABLE + "\",\"Item\":{\"PK\":{\"S\":\"raw\"},\"SK\":{\"S\":\"" + sk
                + "\"},\"payload\":{\"S\":\"";
        String tail = "\"}}}";
        int pad = bytes - head.length() - tail.length();
        assertThat(pad).isPositive();
        return (head + "x".repeat(pad) + tail).getBytes(StandardCharsets.US_ASCII);
    }

    /** A client with the SDK's default retry strategy, unlike TestServer's, which retries nothing. */
    private DynamoDbClient retryingClient() {
        return DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("dummy", "dummy")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .build();
    }

    private static Map<String, String> headers(String target, int contentLength) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Host", "127.0.0.1");
        h.put("Content-Type", "application/x-amz-json-1.0");
        h.put("X-Amz-Target", "DynamoDB_20120810." + target);
        h.put("Authorization", WireProtocolTest.AUTH);
        h.put("Content-Length", Integer.toString(contentLength));
        return h;
    }

    /** A plain PutItem on its own connection, sent up to part of its body, finished on demand. */
    private final class Held implements AutoCloseable {
        private final Socket socket;
        private final byte[] body;
        private final int sent;

        Held(String sk, int sentBytes) {
            this(putItemBody(sk, BODY_BYTES), headers("PutItem", BODY_BYTES), sentBytes);
        }

        Held(byte[] body, Map<String, String> headers, int sentBytes) {
            this.body = body;
            sent = sentBytes;
            try {
                socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout((int) WAIT_MILLIS_MAX);
                StringBuilder head = new StringBuilder("POST / HTTP/1.1\r\n");
                headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
                head.append("\r\n");
                OutputStream out = socket.getOutputStream();
                out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
                out.write(body, 0, sent);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Sends the rest of the body; returns the answer's status line and body. */
        String finish() {
            try {
                OutputStream out = socket.getOutputStream();
                out.write(body, sent, body.length - sent);
                out.flush();
                return readAnswer(socket.getInputStream());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** One answer with a Content-Length body: its status line, a blank, and its body. */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in an answer's head: " + head);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return text.substring(0, text.indexOf("\r\n")) + " "
                + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private void awaitInFlight(long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_MILLIS_MAX * 1_000_000;
        while (server.inFlightBytes() != bytes) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("in flight: " + server.inFlightBytes() + " bytes, awaited " + bytes);
            }
            Thread.sleep(10);
        }
    }

    private boolean present(String pk, String sk) {
        return client.getItem(b ->
                        b.tableName(TABLE).key(Map.of("PK", s(pk), "SK", s(sk))).consistentRead(true))
                .hasItem();
    }

    private static void assertServiceUnavailable(AwsServiceException e) {
        assertThat(e.statusCode()).isEqualTo(503);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
        assertThat(e.awsErrorDetails().errorMessage())
                .startsWith("The server is busy: the request bodies it holds are " + "at their bound of 1 MiB");
    }

    @Test
    void requestsPastTheBoundAreAnswered503AndTheRestNormally() throws Exception {
        try (Held a = new Held("a", 1000)) {
            awaitInFlight(BODY_BYTES);
            try (Held b = new Held("b", 1000)) {
                awaitInFlight(2 * BODY_BYTES);
                // 2 x 400,000 held: a third large body does not fit, on any path, and is not kept.
                try (Held c = new Held("c", 1000)) {
                    Map<String, AttributeValue> big =
                            Map.of("PK", s("sdk"), "SK", s("big"), "payload", s("y".repeat(BODY_BYTES)));
                    AwsServiceException refused = org.junit.jupiter.api.Assertions.assertThrows(
                            AwsServiceException.class,
                            () -> client.putItem(p -> p.tableName(TABLE).item(big)));
                    assertServiceUnavailable(refused);
                    // The SDK's default retry strategy retries the 503 (here in vain: the two are still held).
                    try (DynamoDbClient retrying = retryingClient()) {
                        AwsServiceException again = org.junit.jupiter.api.Assertions.assertThrows(
                                AwsServiceException.class,
                                () -> retrying.putItem(p -> p.tableName(TABLE).item(big)));
                        assertServiceUnavailable(again);
                        // DynamoDB's clients make up to 9 attempts by default (the SDK's DynamoDB retry settings).
                        assertThat(again.numAttempts()).isGreaterThan(1);
                    }
                    byte[] gz = gzip(putItemBody("gz", BODY_BYTES));
                    RawHttp.Response gzipped = RawHttp.post(server.port(), "/", gzipHeaders(gz.length), gz);
                    assertThat(gzipped.status()).isEqualTo(503);
                    assertThat(gzipped.body()).contains("ServiceUnavailable");
                    // A small request still fits beside the two held.
                    client.putItem(p -> p.tableName(TABLE).item(Map.of("PK", s("sdk"), "SK", s("small"))));
                    // Its bytes come back just after its answer is sent.
                    awaitInFlight(2 * BODY_BYTES);

                    assertThat(c.finish()).startsWith("HTTP/1.1 503 ").contains("ServiceUnavailable");
                    assertThat(a.finish()).startsWith("HTTP/1.1 200 ");
                    assertThat(b.finish()).startsWith("HTTP/1.1 200 ");
                }
            }
        }
        awaitInFlight(0);
        assertThat(present("raw", "a")).isTrue();
        assertThat(present("raw", "b")).isTrue();
        assertThat(present("raw", "c")).as("a refused request writes nothing").isFalse();
        assertThat(present("raw", "gz")).isFalse();
        assertThat(present("sdk", "big")).isFalse();
        assertThat(present("sdk", "small")).isTrue();
        // Then the server serves large requests normally again.
        client.putItem(p -> p.tableName(TABLE)
                .item(Map.of("PK", s("sdk"), "SK", s("after"), "payload", s("z".repeat(BODY_BYTES)))));
        assertThat(present("sdk", "after")).isTrue();
    }

    /**
     * On Netty's path a compressed body's size is known only once inflated, so its header part takes
     * the most a body may be (the per-request limit, far above this bound): while it is held, every
     * other request is refused, and once it is answered, served again.
     */
    @Test
    void aCompressedBodyTakesTheMostABodyMayBeFromItsHeaderPart() throws Exception {
        byte[] gz = gzip(putItemBody("gz", BODY_BYTES));
        try (Held held = new Held(gz, gzipHeaders(gz.length), gz.length / 2)) {
            awaitInFlight(ServerLimits.DEFAULTS.requestBytesMax());
            AwsServiceException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    AwsServiceException.class,
                    () -> client.putItem(p -> p.tableName(TABLE).item(Map.of("PK", s("sdk"), "SK", s("small")))));
            assertServiceUnavailable(refused);
            assertThat(held.finish()).startsWith("HTTP/1.1 200 ");
        }
        awaitInFlight(0);
        assertThat(present("raw", "gz")).isTrue();
        client.putItem(p -> p.tableName(TABLE).item(Map.of("PK", s("sdk"), "SK", s("small"))));
    }

    /** With --auth=sigv4 every request takes Netty's path, where a body is counted from its header part too. */
    @Test
    void theBoundHoldsWithSigV4() throws Exception {
        server.close();
        server = TestServer.start(
                new MemoryStore(),
                ServerLimits.DEFAULTS.withInFlightBytesMax(BUDGET_BYTES),
                TestServer.Security.sigV4(Map.of("AKIAALICE", AccessKey.admin("AKIAALICE", "alice-secret"))));
        try (DynamoDbClient signed =
                server.newClient("us-east-1", AwsBasicCredentials.create("AKIAALICE", "alice-secret"))) {
            Fixtures.createTable(signed, TABLE);
            Map<String, AttributeValue> big =
                    Map.of("PK", s("sdk"), "SK", s("big"), "payload", s("y".repeat(BODY_BYTES)));
            try (Held a = new Held("a", 1000);
                    Held b = new Held("b", 1000)) {
                awaitInFlight(2 * BODY_BYTES);
                AwsServiceException refused = org.junit.jupiter.api.Assertions.assertThrows(
                        AwsServiceException.class,
                        () -> signed.putItem(p -> p.tableName(TABLE).item(big)));
                assertServiceUnavailable(refused);
            }
            awaitInFlight(0);
            signed.putItem(p -> p.tableName(TABLE).item(big));
            assertThat(signed.getItem(g -> g.tableName(TABLE).key(Map.of("PK", s("sdk"), "SK", s("big"))))
                            .hasItem())
                    .isTrue();
        }
    }

    @Test
    void bytesOfABodyThatNeverCompletesAreGivenBackWhenItsConnectionCloses() throws Exception {
        try (Held a = new Held("a", 1000)) {
            awaitInFlight(BODY_BYTES);
        }
        awaitInFlight(0);
        byte[] gz = gzip(putItemBody("gz", BODY_BYTES));
        try (Held netty = new Held(gz, gzipHeaders(gz.length), gz.length / 2)) {
            awaitInFlight(ServerLimits.DEFAULTS.requestBytesMax());
        }
        awaitInFlight(0);
        client.putItem(p -> p.tableName(TABLE).item(Map.of("PK", s("sdk"), "SK", s("after"))));
    }

    /** Many clients sending large PutItems at once: each is answered 200 or 503, and a 503 wrote nothing. */
    @Test
    void concurrentLargeRequestsGetOnly200Or503() throws Exception {
        int threads = 8;
        int perThread = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<String>>> results = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> putMany(thread, perThread)));
            }
            List<String> ok = new ArrayList<>();
            int refused = 0;
            for (Future<List<String>> f : results) {
                for (String outcome : f.get()) {
                    if (outcome.startsWith("ok:")) {
                        ok.add(outcome.substring(3));
                    } else {
                        assertThat(outcome).startsWith("503:");
                        assertThat(present("burst", outcome.substring(4)))
                                .as("refused %s", outcome)
                                .isFalse();
                        refused++;
                    }
                }
            }
            assertThat(ok.size() + refused).isEqualTo(threads * perThread);
            assertThat(ok).isNotEmpty();
            for (String sk : ok) {
                assertThat(present("burst", sk)).as(sk).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        awaitInFlight(0);
        client.putItem(p -> p.tableName(TABLE)
                .item(Map.of("PK", s("sdk"), "SK", s("after"), "payload", s("z".repeat(BODY_BYTES)))));
    }

    /** "ok:SK" or "503:SK" per put; any other answer fails the test. */
    private List<String> putMany(int thread, int count) {
        List<String> outcomes = new ArrayList<>();
        try (DynamoDbClient c = server.newClient("us-east-1")) {
            for (int i = 0; i < count; i++) {
                String sk = thread + "-" + i;
                try {
                    c.putItem(p -> p.tableName(TABLE)
                            .item(Map.of("PK", s("burst"), "SK", s(sk), "payload", s("b".repeat(BODY_BYTES)))));
                    outcomes.add("ok:" + sk);
                } catch (AwsServiceException e) {
                    assertServiceUnavailable(e);
                    outcomes.add("503:" + sk);
                }
            }
        }
        return outcomes;
    }

    /** A compressed body goes Netty's way, where the gate counts it once decompressed and assembled. */
    private static Map<String, String> gzipHeaders(int contentLength) {
        Map<String, String> h = headers("PutItem", contentLength);
        h.put("Content-Encoding", "gzip");
        return h;
    }

    private static byte[] gzip(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
