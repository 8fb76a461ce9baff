package dev.kumiko.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * {@code kumiko serve} on RocksDB as a child JVM: the CLI's own entry point ({@code cli.Main}, the
 * shaded jar's main class) on the test class path, since the jar is only packaged after the tests.
 * It can be killed with SIGKILL, which runs no shutdown hook and flushes nothing.
 */
public final class ServerProcess implements AutoCloseable {
    /** A cold JVM on a loaded 2-core machine starts in a few seconds; this bounds a hung start. */
    public static final long START_TIMEOUT_MILLIS = 60_000;

    public static final long EXIT_TIMEOUT_MILLIS = 10_000;
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");

    private final Process process;
    private final Path stderr;
    private final int port;

    private ServerProcess(Process process, Path stderr, int port) {
        this.process = process;
        this.stderr = stderr;
        this.port = port;
    }

    /** Starts a server on dataDir with the given --durability and waits for its listening line. */
    public static ServerProcess start(Path dataDir, String durability, Path logDir) throws IOException {
        Files.createDirectories(logDir);
        Path stderr = Files.createTempFile(logDir, "server", ".stderr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Small heap and C1 only: the server here is a target for crashes, not for speed.
        Process p = new ProcessBuilder(List.of(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.kumiko.server.cli.Main",
                        "serve",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        "0",
                        "--data-dir",
                        dataDir.toString(),
                        "--durability",
                        durability,
                        "--ttl-sweep-interval-millis",
                        "0"))
                .redirectError(stderr.toFile())
                .start();
        return new ServerProcess(p, stderr, awaitPort(p, stderr));
    }

    /** Reads stdout until the listening line; the rest of stdout is drained so the child never blocks. */
    private static int awaitPort(Process p, Path stderr) throws IOException {
        AtomicBoolean listening = new AtomicBoolean();
        // A child silent past the deadline is killed, so that readLine below returns.
        CompletableFuture.delayedExecutor(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .execute(() -> {
                    if (!listening.get()) {
                        p.destroyForcibly();
                    }
                });
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                listening.set(true);
                Thread drain = new Thread(() -> drain(out), "server-stdout");
                drain.setDaemon(true);
                drain.start();
                return Integer.parseInt(m.group(1));
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("server exited or hung before listening; stderr: " + Files.readString(stderr));
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // discard
            }
        } catch (IOException e) {
            // the child died; nothing more to read
        }
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    DynamoDbClient client() {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint())
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

    DynamoDbStreamsClient streamsClient() {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint())
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

    /** kill -9: Process.destroyForcibly sends SIGKILL on Linux. Waits until the child is gone. */
    void killHard() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(EXIT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("server did not die after SIGKILL");
        }
    }

    String stderr() throws IOException {
        return Files.readString(stderr);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            killHard();
        }
    }
}
