package dev.kumiko.server.exchange;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real S3-compatible server for the tests: s3rver (npm), installed by .ci/run with
 * {@code npm ci --prefix scripts/s3rver}. It checks SigV4 signatures with the key S3RVER/S3RVER and
 * keeps objects as files under its directory, which the tests read to see what Kumiko wrote.
 */
final class S3rverProcess implements AutoCloseable {
    static final String ACCESS_KEY = "S3RVER";
    static final String SECRET_KEY = "S3RVER";
    static final long START_TIMEOUT_MILLIS = 30_000;
    private static final Path SCRIPT = Path.of("..", "scripts", "s3rver", "node_modules", "s3rver", "bin",
            "s3rver.js");

    private final Process process;
    final Path directory;
    final int port;

    S3rverProcess(Path directory, String bucket) throws IOException, InterruptedException {
        if (!Files.exists(SCRIPT)) {
            throw new IllegalStateException("s3rver is not installed: run `npm ci --prefix scripts/s3rver` "
                    + "in the repository (.ci/run does)");
        }
        this.directory = directory;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        process = new ProcessBuilder("node", SCRIPT.toString(), "-d", directory.toString(), "-a", "127.0.0.1",
                "-p", String.valueOf(port), "--silent", "--configure-bucket", bucket)
                .redirectErrorStream(true).redirectOutput(directory.resolveSibling("s3rver.log").toFile()).start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (true) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("s3rver did not start on port " + port);
                }
                Thread.sleep(100);
            }
        }
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** An object's bytes, as s3rver keeps them on disk. */
    byte[] object(String bucket, String key) throws IOException {
        return Files.readAllBytes(directory.resolve(bucket).resolve(key + "._S3rver_object"));
    }

    boolean exists(String bucket, String key) {
        return Files.exists(directory.resolve(bucket).resolve(key + "._S3rver_object"));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
