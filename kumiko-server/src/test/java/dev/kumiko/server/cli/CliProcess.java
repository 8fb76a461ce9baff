package dev.kumiko.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.kumiko.server.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code kumiko <args>} as a child JVM (the CLI's entry point on the test class path, as
 * {@link ServerProcess}), for tests of what a user sees on the terminal: the exit code, stdout and
 * stderr of a start that fails, or the start line of one that succeeds.
 */
final class CliProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");
    private static final long POLL_MILLIS = 50;

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private CliProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static CliProcess start(Path logDir, String... args) throws IOException {
        return start(logDir, List.of(), args);
    }

    /** With JVM options beyond the small heap every child gets (e.g. -XX:+ExitOnOutOfMemoryError, as bin/kumiko). */
    static CliProcess start(Path logDir, List<String> jvmOptions, String... args) throws IOException {
        Files.createDirectories(logDir);
        Path out = Files.createTempFile(logDir, "cli", ".stdout");
        Path err = Files.createTempFile(logDir, "cli", ".stderr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command =
                new ArrayList<>(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.kumiko.server.cli.Main"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new CliProcess(p, out, err);
    }

    /** Waits for the process to exit by itself; returns its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(ServerProcess.START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("kumiko did not exit");
        }
        return process.exitValue();
    }

    /** Waits for the start line; returns the port it names. Fails if the process exits first. */
    int awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ServerProcess.START_TIMEOUT_MILLIS);
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(stdout());
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("kumiko exited with " + process.exitValue() + ": " + stderr());
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new IllegalStateException("kumiko did not start listening: " + stderr());
    }

    /** Kills the process as kill -9 does (SIGKILL: no shutdown hook runs) and waits for it to be gone. */
    void destroyForcibly() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    String stdout() throws IOException {
        return Files.readString(stdout, UTF_8);
    }

    /** Stderr without the lines SLF4J may print on the test class path (the jar carries no SLF4J). */
    String stderr() throws IOException {
        StringBuilder b = new StringBuilder();
        for (String line : Files.readAllLines(stderr, UTF_8)) {
            if (!line.startsWith("SLF4J")) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(ServerProcess.EXIT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
