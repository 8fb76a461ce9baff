package dev.kumiko.server.exchange;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real S3-compatible server for the tests: s3rver (npm, pinned in scripts/s3rver's
 * package-lock.json), installed on first use with {@code npm ci --prefix scripts/s3rver} so that
 * {@code mvn -B verify} alone runs every test on a fresh clone. It checks SigV4 signatures with the key S3RVER/S3RVER and
 * keeps objects as files under its directory, which the tests read to see what Kumiko wrote.
 */
final class S3rverProcess implements AutoCloseable {
    static final String ACCESS_KEY = "S3RVER";
    static final String SECRET_KEY = "S3RVER";
    static final long START_TIMEOUT_MILLIS = 30_000;
    /** npm fetches s3rver and its dependencies (about 100 packages) from the registry. */
    static final long INSTALL_TIMEOUT_SECONDS = 300;

    private static final Path PACKAGE_DIR = Path.of("..", "scripts", "s3rver");
    private static final Path SCRIPT = Path.of("..", "scripts", "s3rver", "node_modules", "s3rver", "bin", "s3rver.js");

    private final Process process;
    final Path directory;
    final int port;

    S3rverProcess(Path directory, String bucket) throws IOException, InterruptedException {
        installOnce();
        this.directory = directory;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        process = new ProcessBuilder(
                        "node",
                        SCRIPT.toString(),
                        "-d",
                        directory.toString(),
                        "-a",
                        "127.0.0.1",
                        "-p",
                        String.valueOf(port),
                        "--silent",
                        "--configure-bucket",
                        bucket)
                .redirectErrorStream(true)
                .redirectOutput(directory.resolveSibling("s3rver.log").toFile())
                .start();
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

    /** Installs s3rver when it is missing; one test class at a time (the forks share the directory). */
    private static synchronized void installOnce() throws IOException, InterruptedException {
        if (Files.exists(SCRIPT)) {
            return;
        }
        Path log = Files.createTempFile("s3rver-npm", ".log");
        Process npm = new ProcessBuilder("npm", "ci", "--prefix", PACKAGE_DIR.toString(), "--no-audit", "--no-fund")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = npm.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!done) {
            npm.destroyForcibly();
        }
        if (!done || npm.exitValue() != 0 || !Files.exists(SCRIPT)) {
            throw new IllegalStateException("could not install s3rver with `npm ci --prefix scripts/s3rver` (see " + log
                    + "): " + Files.readString(log).strip());
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
