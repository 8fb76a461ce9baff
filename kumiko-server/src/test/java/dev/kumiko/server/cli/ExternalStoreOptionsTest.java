package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --store NAME}: a store the server jar does not contain is found on the class path
 * (kumiko-ignite, added by bin/kumiko); without it, or for an unknown name, the start fails with a
 * usage error that says so, and creates no data directory.
 */
class ExternalStoreOptionsTest {
    @TempDir
    Path dir;

    @Test
    void igniteWithoutItsModuleSaysHowToRunIt() throws Exception {
        try (CliProcess cli = CliProcess.start(
                dir.resolve("logs"),
                "serve",
                "--port",
                "0",
                "--store",
                "ignite",
                "--ignite-endpoints",
                "127.0.0.1:1")) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(cli.stderr().strip())
                    .isEqualTo("--store must be memory, rocksdb or ignite: ignite "
                            + "(its module is not on the class path: run through bin/kumiko)");
        }
    }

    @Test
    void unknownStoreIsAUsageErrorAndCreatesNoDataDir() throws Exception {
        Path data = dir.resolve("data");
        try (CliProcess cli = CliProcess.start(
                dir.resolve("logs"), "serve", "--port", "0", "--store", "nosuch", "--data-dir", data.toString())) {
            assertThat(cli.awaitExit()).isEqualTo(2);
            assertThat(cli.stderr().strip()).isEqualTo("--store must be memory, rocksdb or ignite: nosuch");
        }
        assertThat(data).doesNotExist();
    }
}
