package dev.kumiko.server.kinesis;

import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.Fields;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Kinesis-compatible server for the tests: kinesalite (npm, pinned in scripts/kinesalite's
 * package-lock.json), installed on first use with {@code npm ci --prefix scripts/kinesalite} as the
 * export tests install s3rver, in memory, on a free port, with streams created and deleted at once.
 * Without npm the tests are skipped with a message, except under CI (CI=true), where they fail.
 *
 * <p>The tests read the stream back over Kinesis' JSON protocol with the JDK's HTTP client: the AWS
 * SDK's Kinesis client is not available at the SDK version the project pins (docs/kinesis.md).
 * kinesalite checks that a request carries a SigV4 Authorization header, not its signature.
 */
final class KinesaliteProcess implements AutoCloseable {
    static final long START_TIMEOUT_MILLIS = 30_000;
    static final long INSTALL_TIMEOUT_SECONDS = 300;
    /** kinesalite's account in every ARN it makes. */
    static final String ACCOUNT = "000000000000";

    private static final Path PACKAGE_DIR = Path.of("..", "scripts", "kinesalite");
    private static final Path SCRIPT = PACKAGE_DIR.resolve(Path.of("node_modules", "kinesalite", "cli.js"));

    private final Process process;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final int port;

    KinesaliteProcess(Path log) throws IOException, InterruptedException {
        installOnce();
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        process = new ProcessBuilder(
                        "node",
                        SCRIPT.toString(),
                        "--port",
                        String.valueOf(port),
                        "--createStreamMs",
                        "0",
                        "--deleteStreamMs",
                        "0",
                        "--updateStreamMs",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (true) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("kinesalite did not start on port " + port + " (see " + log + ")");
                }
                Thread.sleep(100);
            }
        }
    }

    /** Installs kinesalite when it is missing; skips the tests without npm, except under CI. */
    private static synchronized void installOnce() throws IOException, InterruptedException {
        if (Files.exists(SCRIPT)) {
            return;
        }
        Path log = Files.createTempFile("kinesalite-npm", ".log");
        Process npm;
        try {
            npm = new ProcessBuilder("npm", "ci", "--prefix", PACKAGE_DIR.toString(), "--no-audit", "--no-fund")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException noNpm) {
            Assumptions.assumeFalse(
                    "true".equals(System.getenv("CI")), "CI must run the Kinesis tests: npm is missing");
            Assumptions.abort(
                    "kinesalite is not installed and npm is missing: run `npm ci --prefix scripts/kinesalite`");
            throw noNpm;
        }
        boolean done = npm.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!done) {
            npm.destroyForcibly();
        }
        if (!done || npm.exitValue() != 0 || !Files.exists(SCRIPT)) {
            throw new IllegalStateException(
                    "could not install kinesalite with `npm ci --prefix scripts/kinesalite` (see " + log + "): "
                            + Files.readString(log).strip());
        }
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    static String arn(String streamName) {
        return "arn:aws:kinesis:us-east-1:" + ACCOUNT + ":stream/" + streamName;
    }

    void createStream(String name, int shards) throws IOException, InterruptedException {
        call("CreateStream", "{\"StreamName\":\"" + name + "\",\"ShardCount\":" + shards + "}");
    }

    /** Every record of the stream, shard by shard from the oldest, each shard's in order. */
    List<Received> records(String name) throws IOException, InterruptedException {
        List<Object> shards = Fields.list(call("ListShards", "{\"StreamName\":\"" + name + "\"}"), "Shards");
        List<Received> out = new ArrayList<>();
        for (Object shard : java.util.Objects.requireNonNull(shards, "Shards")) {
            String shardId = Fields.string(Fields.objectValue(shard), "ShardId");
            String iterator = Fields.string(
                    call(
                            "GetShardIterator",
                            "{\"StreamName\":\"" + name + "\",\"ShardId\":\"" + shardId
                                    + "\",\"ShardIteratorType\":\"TRIM_HORIZON\"}"),
                    "ShardIterator");
            for (int page = 0; page < 100 && iterator != null; page++) {
                Map<String, Object> answer = call("GetRecords", "{\"ShardIterator\":\"" + iterator + "\"}");
                List<Object> records = java.util.Objects.requireNonNull(Fields.list(answer, "Records"), "Records");
                for (Object o : records) {
                    Map<String, Object> r = Fields.objectValue(o);
                    byte[] data = Base64.getDecoder().decode(Fields.string(r, "Data"));
                    out.add(new Received(
                            java.util.Objects.requireNonNull(Fields.string(r, "PartitionKey")),
                            JsonTree.parseObject(data, 0, data.length)));
                }
                if (records.isEmpty()) {
                    break;
                }
                iterator = Fields.string(answer, "NextShardIterator");
            }
        }
        return out;
    }

    /** One Kinesis record: its partition key and its data, parsed. */
    record Received(String partitionKey, Map<String, Object> data) {}

    private Map<String, Object> call(String operation, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(endpoint())
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "Kinesis_20131202." + operation)
                .header("X-Amz-Date", "20260101T000000Z")
                .header(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/kinesis/aws4_request, "
                                + "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("kinesalite answered " + operation + " with " + response.statusCode() + ": "
                    + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        byte[] answer = response.body();
        return JsonTree.parseObject(answer, 0, answer.length);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
