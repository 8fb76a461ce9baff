package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * One-line CLI errors everywhere (issue #63): every command answers a mistyped option with the nearest
 * one, refuses options that contradict each other, and says each failure in one line with its fix.
 * Each run goes through the CLI's entry point with stderr captured, as a terminal shows it.
 */
class CliErrorsTest {
    @TempDir
    Path dir;

    /** Exit code and stderr of one command line, run as Main runs it (ServeArgs first, then picocli). */
    record Run(int code, String err) {
        /** The only line on stderr; fails when there are more. */
        String line() {
            assertThat(err.strip())
                    .as("exactly one line on stderr")
                    .doesNotContain("\n")
                    .isNotEmpty();
            return err.strip();
        }
    }

    static Run run(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        System.setErr(err);
        try {
            ServeCommand serve = ServeArgs.parse(args);
            int code = serve != null
                    ? serve.call()
                    : Main.commandLine(args).setErr(new PrintWriter(err, true)).execute(args);
            return new Run(code, bytes.toString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void aMistypedServeOptionIsOneLineWithTheNearestOption() {
        Run r = run("serve", "--prot", "8000");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.line())
                .isEqualTo("kumiko serve: unknown option --prot (did you mean --port?); "
                        + "`kumiko serve --help` lists the options");
    }

    @Test
    void everyCommandSuggestsTheNearestOptionOrCommand() {
        assertThat(run("export", "users", "--to", "d", "--endpont", "http://127.0.0.1:1")
                        .line())
                .isEqualTo(
                        "kumiko export: unknown option --endpont (did you mean --endpoint?); `kumiko export --help` lists "
                                + "the options");
        assertThat(run("import", "--from", "d", "--replce").line())
                .isEqualTo("kumiko import: unknown option "
                        + "--replce (did you mean --replace?); `kumiko import --help` lists the options");
        assertThat(run("model", "check", "m.json", "--formt=json").line())
                .isEqualTo("kumiko model check: unknown "
                        + "option --formt (did you mean --format?); `kumiko model check --help` lists the options");
        assertThat(run("model", "chek", "m.json").line())
                .isEqualTo("kumiko model: unknown command chek (did you "
                        + "mean check?); `kumiko model --help` lists the commands");
        Run typo = run("sevre");
        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.line())
                .isEqualTo(
                        "kumiko: unknown command sevre (did you mean serve?); `kumiko --help` " + "lists the commands");
        assertThat(run("serve", "--data", "x").line())
                .startsWith("kumiko serve: unknown option --data (did you " + "mean --data-dir?)");
        assertThat(run("serve", "--zzz").line())
                .isEqualTo("kumiko serve: unknown option --zzz; `kumiko serve --help` " + "lists the options");
    }

    @Test
    void otherParseErrorsAreOneLineToo() {
        Run missing = run("export", "users", "--endpoint", "http://127.0.0.1:1");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.line())
                .isEqualTo("kumiko export: missing required option: '--to=DIR'; `kumiko export "
                        + "--help` lists the options");
        assertThat(run("export", "users", "--to", "d", "--endpoint", "http://127.0.0.1:1", "--data-dir", "x")
                        .line())
                .startsWith("kumiko export: ")
                .contains("mutually exclusive");
        assertThat(run("serve", "--port", "80x").line())
                .startsWith("kumiko serve: invalid value for option " + "'--port': '80x' is not an int");
    }

    @Test
    void inMemoryWithADataDirectoryIsRefusedAndNothingIsCreated() {
        Path data = dir.resolve("data");
        Run r = run("serve", "--in-memory", "--data-dir", data.toString(), "--port", "0");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.line())
                .isEqualTo("--in-memory keeps nothing on disk, so --data-dir " + data + " would be "
                        + "ignored: give one of them");
        assertThat(data).doesNotExist();
        assertThat(run("serve", "-inMemory", "-dbPath", data.toString()).line())
                .isEqualTo("--in-memory keeps nothing " + "on disk, so -dbPath " + data
                        + " would be ignored: give one of them");
        assertThat(run("serve", "--store", "memory", "--data-dir", data.toString())
                        .line())
                .isEqualTo("--store memory " + "keeps nothing on disk, so --data-dir " + data
                        + " would be ignored: give one of them");
        assertThat(run("serve", "--data-dir", "a", "-dbPath", "b").line())
                .isEqualTo("--data-dir a and -dbPath b both " + "name the data directory: give one of them");
        assertThat(run("serve", "--store", "ignite", "--data-dir", "a", "--ignite-endpoints", "h:1")
                        .line())
                .isEqualTo("--store ignite keeps the data in the Ignite cluster, so --data-dir a would be ignored: "
                        + "give one of them");
        assertThat(run("serve", "--in-memory", "--store", "rocksdb").line())
                .isEqualTo("--in-memory and --store " + "rocksdb contradict each other: give one of them");
        assertThat(run("serve", "--ignite-endpoints", "h:1").line())
                .isEqualTo("--ignite-endpoints is for --store "
                        + "ignite: add --store ignite, or drop --ignite-endpoints");
        assertThat(data).doesNotExist();
    }

    /** A server in another process holds the directory: the line names it (as serve's own check does). */
    @Tag("slow") // starts a `kumiko serve` JVM
    @Test
    void exportFromADataDirectoryAServerHoldsNamesTheServer() throws Exception {
        Path data = dir.resolve("served");
        try (CliProcess server = CliProcess.start(
                dir.resolve("logs"),
                "serve",
                "--port",
                "0",
                "--data-dir",
                data.toString(),
                "--ttl-sweep-interval-millis",
                "0")) {
            server.awaitListening();
            Run r = run("export", "users", "--to", dir.resolve("out").toString(), "--data-dir", data.toString());
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.line())
                    .startsWith("kumiko export: data directory " + data + " is in use by process " + server.pid())
                    .endsWith(
                            ": give --endpoint of the server that has it open instead of " + "--data-dir, or stop it");
        }
    }

    @Test
    void exportFromADataDirectoryInUseIsOneLineNotRocksDbsLockText() throws Exception {
        Path data = dir.resolve("held");
        try (RocksStore held = RocksStore.open(data, RocksStoreOptions.defaults())) {
            Run r = run("export", "users", "--to", dir.resolve("out").toString(), "--data-dir", data.toString());
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.line())
                    .isEqualTo(
                            "kumiko export: data directory " + data + " is in use by another open "
                                    + "store: give --endpoint of the server that has it open instead of --data-dir, or stop it");
            assertThat(run(
                                    "import",
                                    "--from",
                                    dir.toString(),
                                    "--key",
                                    "id:S",
                                    "--table",
                                    "t",
                                    "--format",
                                    "CSV",
                                    "--data-dir",
                                    data.toString())
                            .line())
                    .startsWith("kumiko import: data directory " + data + " is in use by another open store: ");
        }
        Run none = run(
                "export",
                "users",
                "--to",
                dir.resolve("out").toString(),
                "--data-dir",
                dir.resolve("nothing").toString());
        assertThat(none.line())
                .isEqualTo("kumiko export: no data directory at " + dir.resolve("nothing") + ": give "
                        + "the --data-dir a server wrote, or --endpoint of a running server");
    }

    @Test
    void anUnreachableEndpointSaysWhyAndWhatToDo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Run r = run("export", "users", "--to", dir.resolve("out").toString(), "--endpoint", "http://127.0.0.1:" + port);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.line())
                .isEqualTo("kumiko export: cannot reach http://127.0.0.1:" + port + ": connection refused; "
                        + "start `kumiko serve` there, or give --data-dir to open a data directory no server has open");
        assertThat(run(
                                "export",
                                "users",
                                "--to",
                                dir.resolve("out").toString(),
                                "--endpoint",
                                "http://no-such-host.invalid:8000")
                        .line())
                .isEqualTo("kumiko export: cannot reach "
                        + "http://no-such-host.invalid:8000: the host name does not resolve; start `kumiko serve` there, or "
                        + "give --data-dir to open a data directory no server has open");
    }

    @Test
    void importingOverAnExistingTableNamesReplace() throws Exception {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            server.client()
                    .createTable(t -> t.tableName("users")
                            .billingMode(BillingMode.PAY_PER_REQUEST)
                            .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                            .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
            server.client().putItem(p -> p.tableName("users").item(Map.of("id", AttributeValue.fromS("u1"))));
            String endpoint = server.endpoint().toString();
            Path dump = dir.resolve("dump");
            assertThat(run("export", "users", "--to", dump.toString(), "--endpoint", endpoint)
                            .code())
                    .isZero();

            Run again = run("import", "--from", dump.toString(), "--endpoint", endpoint);

            assertThat(again.code()).isEqualTo(1);
            assertThat(again.err().strip().lines().reduce((a, b) -> b).orElseThrow())
                    .startsWith("kumiko import: ")
                    .endsWith("; add --replace to delete it and import the folder into a new one, or --table NAME "
                            + "to import under another name");
            assertThat(run("import", "--from", dump.toString(), "--format", "CSV", "--endpoint", endpoint)
                            .line())
                    .isEqualTo("kumiko import: " + dump + " is an export, which says its own format: drop --format");
            assertThat(run("import", "--from", dump.toString(), "--key", "id:S", "--endpoint", endpoint)
                            .line())
                    .isEqualTo("kumiko import: " + dump + " has kumiko-table.json, which gives the table's keys: drop "
                            + "--key and --sort-key (--table still names the new table)");
        }
    }

    @Test
    void helpListsIgniteAndTheServerJarAloneSaysHowToRunIt() {
        java.io.StringWriter out = new java.io.StringWriter();
        int code = Main.commandLine("--help").setOut(new PrintWriter(out)).execute("--help");
        assertThat(code).isZero();
        assertThat(out.toString()).containsSubsequence("Commands:", "serve", "export", "import", "model", "ignite");
        Run r = run("ignite", "start", "--nodes", "1");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.line())
                .isEqualTo("kumiko ignite: the Ignite launcher is in the kumiko-ignite jar, which "
                        + "bin/kumiko puts on the class path: run `bin/kumiko ignite start --nodes 1`");
        assertThat(Files.exists(dir.resolve("nothing"))).isFalse();
    }
}
