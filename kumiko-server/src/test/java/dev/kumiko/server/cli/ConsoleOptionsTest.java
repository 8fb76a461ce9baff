package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.server.console.ConsolePaths;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** --console, --console-model and --request-log: checked before anything is opened, one line each. */
class ConsoleOptionsTest {
    @TempDir
    Path dir;

    private static String[] serve(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new ServeCommand()).execute(args);
            String[] lines = err.toString(StandardCharsets.UTF_8).strip().split("\n");
            return new String[] {Integer.toString(code), lines[lines.length - 1]};
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void badOptionsAreRefusedInOneLine() throws IOException {
        assertThat(serve("--in-memory", "--console=maybe"))
                .containsExactly("2", "--console must be 'auto', 'on' or 'off'");
        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, "{\"keys\": [{\"accessKeyId\": \"AKID\", \"secretAccessKey\": \"secret\"}]}");
        assertThat(serve("--in-memory", "--auth=sigv4", "--credentials-file", keys.toString(), "--console=on"))
                .containsExactly(
                        "2",
                        "--console=on cannot be used with --auth=sigv4: the console's requests are " + "not signed");
        Path model = dir.resolve("model.json");
        Files.writeString(model, "{\"entities\": [{\"name\": \"Room\"}]}");
        assertThat(serve("--in-memory", "--console-model", model.toString()))
                .containsExactly(
                        "2",
                        "--console-model "
                                + model
                                + ": each entity of a prefix file needs a string \"name\" and \"pk\" (and optionally \"sk\" "
                                + "and \"table\"); a model file gives a \"table\" and each entity's \"keys\" (docs/modeling.md)");
        Path noDir = dir.resolve("no/such/dir/requests.log");
        assertThat(serve("--in-memory", "--request-log=" + noDir)[1])
                .startsWith("--request-log " + noDir + ": cannot be opened");
    }

    /** Issue #63: serve --console-model examples/models/chat.json was refused; the model file is the console's. */
    @Test
    void theModelFileThatModelCheckReadsIsAccepted() throws Exception {
        ConsoleOptions o = new ConsoleOptions();
        o.consoleModel = Path.of("..", "examples", "models", "chat.json");
        o.check(false);
        try (Engine engine = Engine.inMemory()) {
            assertThat(o.telemetry(engine, "127.0.0.1", false).countsHotKeys()).isTrue();
        }
    }

    @Test
    void theConsoleIsOnByDefaultOnlyOnLoopbackAndNeverWithSigV4() {
        ConsoleOptions o = new ConsoleOptions();
        o.console = "auto";
        assertThat(o.access("127.0.0.1", false)).isEqualTo(ConsolePaths.Access.ON);
        assertThat(o.access("localhost", false)).isEqualTo(ConsolePaths.Access.ON);
        assertThat(o.access("0.0.0.0", false)).isEqualTo(ConsolePaths.Access.OFF);
        assertThat(o.access("127.0.0.1", true)).isEqualTo(ConsolePaths.Access.SIGV4);
        o.console = "on";
        assertThat(o.access("0.0.0.0", false)).isEqualTo(ConsolePaths.Access.ON);
        o.console = "off";
        assertThat(o.access("127.0.0.1", false)).isEqualTo(ConsolePaths.Access.OFF);
    }

    /** Only a served console shows hot keys, so only then are requests' partition keys counted. */
    @Test
    void hotKeysAreCountedOnlyForAServedConsole() {
        ConsoleOptions o = new ConsoleOptions();
        o.console = "auto";
        try (Engine engine = Engine.inMemory()) {
            assertThat(o.telemetry(engine, "127.0.0.1", false).countsHotKeys()).isTrue();
            assertThat(o.telemetry(engine, "0.0.0.0", false).countsHotKeys()).isFalse();
            assertThat(o.telemetry(engine, "127.0.0.1", true).countsHotKeys()).isFalse();
            o.console = "off";
            assertThat(o.telemetry(engine, "127.0.0.1", false).countsHotKeys()).isFalse();
            o.console = "on";
            assertThat(o.telemetry(engine, "0.0.0.0", false).countsHotKeys()).isTrue();
        }
    }
}
