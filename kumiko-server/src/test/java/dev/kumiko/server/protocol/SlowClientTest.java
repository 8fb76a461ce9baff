package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.storage.memory.MemoryStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Slow, stalled and idle clients against a server with short timeouts (ServerLimits): each is
 * disconnected, and other clients are served meanwhile. Waits are bounded by socket timeouts far
 * above the server's, so the tests assert what happens, not how fast.
 */
@Tag("slow")
class SlowClientTest {
    private static final long REQUEST_TIMEOUT_MILLIS = 500;
    private static final long IDLE_TIMEOUT_MILLIS = 2_000;
    /** How long a test waits for the server to act; far above the timeouts, so never reached. */
    private static final int WAIT_MILLIS = 30_000;

    private Engine engine;
    private KumikoServer server;

    private void start(int connectionsMax) throws InterruptedException {
        start(connectionsMax, IDLE_TIMEOUT_MILLIS);
    }

    private void start(int connectionsMax, long idleTimeoutMillis) throws InterruptedException {
        // Connection handling is under test, not the store (and TestServer takes no ServerLimits):
        // a memory store of its own on every suite run.
        engine = Engine.open(new MemoryStore());
        ServerLimits limits = ServerLimits.DEFAULTS
                .withTimeouts(REQUEST_TIMEOUT_MILLIS, idleTimeoutMillis)
                .withConnectionsMax(connectionsMax);
        server = new KumikoServer(
                        ServerConfig.defaults("127.0.0.1", 0, "us-east-1").withLimits(limits))
                .start(new Operations(engine));
    }

    @AfterEach
    void stop() {
        server.close();
        engine.close();
    }

    private DynamoDbClient client() {
        return DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("dummy", "dummy")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofSeconds(30))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryPolicy(RetryPolicy.none())
                        .build())
                .build();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoTimeout(WAIT_MILLIS);
        return s;
    }

    private static String request(String operation, String body) {
        return "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                + "X-Amz-Target: DynamoDB_20120810." + operation + "\r\nAuthorization: " + WireProtocolTest.AUTH
                + "\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    /** Reads until the server closes; true if it closed (EOF or reset) without sending a byte. */
    private static boolean closedSilently(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        try {
            return in.read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    @Test
    void halfSentRequestIsClosedWhileOthersAreServed() throws Exception {
        start(100);
        try (Socket stalled = connect();
                DynamoDbClient client = client()) {
            String full = request("ListTables", "{\"Limit\": 10}");
            stalled.getOutputStream().write(full.substring(0, full.length() - 5).getBytes(StandardCharsets.UTF_8));
            stalled.getOutputStream().flush();
            assertThat(client.listTables().tableNames()).isEmpty();
            assertThat(closedSilently(stalled)).as("stalled request closed").isTrue();
            assertThat(client.listTables().tableNames()).isEmpty();
        }
    }

    @Test
    void pipelinedRequestStalledInItsBodyIsClosedAtItsDeadline() throws Exception {
        // The idle timeout is above the test's wait, so only the request deadline can close it.
        start(100, WAIT_MILLIS * 2L);
        try (Socket s = connect()) {
            String next = request("ListTables", "{\"Limit\": 10}");
            // One write: a whole request, then the next one's headers and part of its body.
            s.getOutputStream()
                    .write((request("ListTables", "{}") + next.substring(0, next.length() - 5))
                            .getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            assertThat(WireProtocolTest.readResponse(s.getInputStream())).startsWith("HTTP/1.1 200");
            assertThat(closedSilently(s))
                    .as("the stalled second request is closed")
                    .isTrue();
        }
    }

    @Test
    void slowlorisHeadersAreCutOff() throws Exception {
        start(100);
        byte[] full = request("ListTables", "{}").getBytes(StandardCharsets.UTF_8);
        int sent = 0;
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            try {
                // One byte every 50 ms: the whole request would take about 15 s, 30 times the deadline.
                for (; sent < full.length; sent++) {
                    out.write(full[sent]);
                    out.flush();
                    Thread.sleep(50);
                    if (s.getInputStream().available() > 0) {
                        break;
                    }
                }
            } catch (SocketException closed) {
                // Expected: the server closed the connection while we were still sending headers.
            }
            assertThat(sent).as("bytes sent before the server gave up").isLessThan(full.length);
            assertThat(closedSilently(s)).isTrue();
        }
    }

    @Test
    void requestStalledAfterAnswersOnOneConnectionIsClosedAtItsOwnDeadline() throws Exception {
        start(100);
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            // Answered requests spread over more than one deadline, so that the connection's timer
            // has fired for an earlier request when the stalled one starts.
            for (int i = 0; i < 3; i++) {
                out.write(request("ListTables", "{}").getBytes(StandardCharsets.UTF_8));
                out.flush();
                assertThat(WireProtocolTest.readResponse(s.getInputStream())).startsWith("HTTP/1.1 200");
                Thread.sleep(REQUEST_TIMEOUT_MILLIS / 2);
            }
            String full = request("ListTables", "{}");
            out.write(full.substring(0, full.length() - 1).getBytes(StandardCharsets.UTF_8));
            out.flush();
            long sentNanos = System.nanoTime();
            assertThat(closedSilently(s)).as("stalled request closed").isTrue();
            long waitedMillis = (System.nanoTime() - sentNanos) / 1_000_000;
            // Closed by the request deadline, not by the idle timeout, which is four times longer.
            assertThat(waitedMillis).isLessThan(IDLE_TIMEOUT_MILLIS);
        }
    }

    @Test
    void keepAliveConnectionMayWaitLongerThanTheRequestDeadline() throws Exception {
        start(100);
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(request("ListTables", "{}").getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(WireProtocolTest.readResponse(s.getInputStream())).startsWith("HTTP/1.1 200");
            // Idle between requests: longer than a request may take, shorter than the idle timeout.
            Thread.sleep(REQUEST_TIMEOUT_MILLIS * 2);
            out.write(request("ListTables", "{}").getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(WireProtocolTest.readResponse(s.getInputStream())).startsWith("HTTP/1.1 200");
            // And left idle, it is closed in the end.
            assertThat(closedSilently(s)).isTrue();
        }
    }

    @Test
    void manyIdleConnectionsDoNotStopNewOnes() throws Exception {
        start(100);
        List<Socket> idle = new ArrayList<>();
        try (DynamoDbClient client = client()) {
            for (int i = 0; i < 80; i++) {
                idle.add(connect());
            }
            assertThat(client.listTables().tableNames()).isEmpty();
            for (Socket s : idle) {
                assertThat(closedSilently(s)).as("idle connection closed").isTrue();
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    @Test
    void connectionsOverTheLimitAreClosedUntilIdleOnesGo() throws Exception {
        start(5);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                idle.add(connect());
            }
            // Accepted connections are counted asynchronously; wait until the server holds all five.
            while (server.openConnections() < 5) {
                Thread.sleep(10);
            }
            try (Socket refused = connect()) {
                assertThat(closedSilently(refused))
                        .as("sixth connection closed")
                        .isTrue();
            }
            for (Socket s : idle) {
                assertThat(closedSilently(s)).isTrue();
            }
            try (DynamoDbClient client = client()) {
                assertThat(client.listTables().tableNames()).isEmpty();
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }
}
