package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kumiko serve} started as a user starts it: a start that cannot succeed prints one line that
 * names the port or the path and the fix, exits non-zero, and leaves no data directory behind.
 */
@Tag("slow") // starts `kumiko serve` JVMs: seconds each, left out of -Pquick
class StartupErrorsTest {
    @TempDir
    Path dir;

    private Path logs() {
        return dir.resolve("logs");
    }

    private static String oneLine(String stderr) {
        assertThat(stderr.strip()).as("exactly one line on stderr").doesNotContain("\n");
        return stderr.strip();
    }

    @Test
    void takenPortIsNamedAndTheDataDirIsNotCreated() throws Exception {
        Path data = dir.resolve("data");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                CliProcess cli = CliProcess.start(
                        logs(),
                        "serve",
                        "--port",
                        String.valueOf(taken.getLocalPort()),
                        "--data-dir",
                        data.toString())) {
            int port = taken.getLocalPort();
            assertThat(cli.awaitExit()).isEqualTo(1);
            assertThat(oneLine(cli.stderr()))
                    .isEqualTo("port " + port + " on 127.0.0.1 is already in use (another "
                            + "Kumiko or DynamoDB Local?): stop that process or choose another port, e.g. --port "
                            + (port + 1) + " (or --port 0 for any free port)");
        }
        assertThat(data).doesNotExist();
    }

    @Test
    void hostThatDoesNotResolveIsNamedAndTheDataDirIsNotCreated() throws Exception {
        Path data = dir.resolve("data");
        // .invalid is reserved (RFC 2606): no resolver answers for it.
        try (CliProcess cli = CliProcess.start(
                logs(), "serve", "--host", "no-such-host.invalid", "--port", "8000", "--data-dir", data.toString())) {
            assertThat(cli.awaitExit()).isEqualTo(1);
            assertThat(oneLine(cli.stderr()))
                    .isEqualTo("cannot listen on no-such-host.invalid:8000: Unresolved address; check --host");
        }
        assertThat(data).doesNotExist();
    }

    @Test
    void portOutOfRangeIsAUsageError() throws Exception {
        Path data = dir.resolve("data");
        try (CliProcess cli = CliProcess.start(logs(), "serve", "--port", "99999", "--data-dir", data.toString())) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(oneLine(cli.stderr()))
                    .isEqualTo("--port 99999 is out of range: use 1-65535, or 0 for any free port");
        }
        assertThat(data).doesNotExist();
    }

    @Test
    void memoryBoundsOutOfRangeOrOnTheWrongStoreAreUsageErrors() throws Exception {
        Path data = dir.resolve("data");
        try (CliProcess cli = CliProcess.start(
                logs(), "serve", "--port", "0", "--data-dir", data.toString(), "--memory-budget-mb", "16")) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(oneLine(cli.stderr())).isEqualTo("--memory-budget-mb needs the memory store (--in-memory)");
        }
        // CliProcess runs its JVM with -Xmx128m.
        try (CliProcess cli =
                CliProcess.start(logs(), "serve", "--port", "0", "--in-memory", "--memory-budget-mb", "0")) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(oneLine(cli.stderr()))
                    .startsWith("--memory-budget-mb must be in [1, ")
                    .endsWith("] (the JVM's maximum heap)");
        }
        try (CliProcess cli =
                CliProcess.start(logs(), "serve", "--port", "0", "--in-memory", "--in-flight-mb", "100000")) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(oneLine(cli.stderr())).startsWith("--in-flight-mb must be in [1, ");
        }
        assertThat(data).doesNotExist();
    }

    @Test
    void aKinesisEndpointThatIsNotAnHttpUrlIsAUsageError() throws Exception {
        try (CliProcess cli = CliProcess.start(
                logs(), "serve", "--port", "0", "--in-memory", "--kinesis-endpoint", "ftp://127.0.0.1:4567")) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(oneLine(cli.stderr()))
                    .isEqualTo("--kinesis-endpoint ftp://127.0.0.1:4567 is not an http:// or https:// URL");
        }
    }

    @Test
    void lockedDataDirNamesTheProcessHoldingIt() throws Exception {
        Path data = dir.resolve("data");
        try (CliProcess holder = CliProcess.start(
                logs(), "serve", "--port", "0", "--data-dir", data.toString(), "--ttl-sweep-interval-millis", "0")) {
            holder.awaitListening();
            try (CliProcess second = CliProcess.start(logs(), "serve", "--port", "0", "--data-dir", data.toString())) {
                assertThat(second.awaitExit()).isEqualTo(1);
                String line = oneLine(second.stderr());
                assertThat(line)
                        .startsWith("data directory " + data.toAbsolutePath().normalize() + " is in use by ")
                        .endsWith(": stop it, or choose another --data-dir (or use --in-memory)");
                if (Files.isReadable(Path.of("/proc/locks"))) {
                    assertThat(line).contains("is in use by process " + holder.pid() + " (");
                }
            }
        }
    }

    @Test
    void dataDirUnderAFileCannotBeCreated() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        Path data = file.resolve("data");
        try (CliProcess cli = CliProcess.start(logs(), "serve", "--port", "0", "--data-dir", data.toString())) {
            assertThat(cli.awaitExit()).isEqualTo(1);
            assertThat(oneLine(cli.stderr()))
                    .isEqualTo("cannot create data directory " + data + ": " + file
                            + " is not a writable directory; choose another with --data-dir (or use --in-memory)");
        }
    }

    @Test
    void unwritableDataDirIsNamed() throws Exception {
        // root may write anywhere, so the permission bits below would not stop it.
        assumeFalse("root".equals(System.getProperty("user.name")), "running as root");
        Path data = Files.createDirectory(
                dir.resolve("readonly"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        try (CliProcess cli = CliProcess.start(logs(), "serve", "--port", "0", "--data-dir", data.toString())) {
            assertThat(cli.awaitExit()).isEqualTo(1);
            assertThat(oneLine(cli.stderr()))
                    .isEqualTo("data directory " + data + " is not writable by this user: "
                            + "fix its permissions or choose another with --data-dir (or use --in-memory)");
        }
    }

    @Test
    void startLinePrintsTheDataDirAndWhetherItIsNew() throws Exception {
        Path data = dir.resolve("fresh");
        try (CliProcess cli = CliProcess.start(
                logs(), "serve", "--port", "0", "--data-dir", data.toString(), "--ttl-sweep-interval-millis", "0")) {
            cli.awaitListening();
            assertThat(cli.stdout())
                    .contains("RocksDB at " + data.toAbsolutePath().normalize() + " (new),");
        }
        try (CliProcess cli = CliProcess.start(
                logs(), "serve", "--port", "0", "--data-dir", data.toString(), "--ttl-sweep-interval-millis", "0")) {
            cli.awaitListening();
            assertThat(cli.stdout())
                    .contains("RocksDB at " + data.toAbsolutePath().normalize() + ",");
        }
    }
}
