package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad --auth / --credentials-file / --tls-* options: one line on stderr and exit code 2, nothing opened. */
class ServeSecurityOptionsTest {
    @TempDir
    Path dir;

    private record Result(int code, String stderr) {}

    private static Result serve(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new ServeCommand()).execute(args);
            // The last line: on the test class path SLF4J may announce itself first (the jar has no SLF4J).
            String[] lines = err.toString(StandardCharsets.UTF_8).strip().split("\n");
            return new Result(code, lines[lines.length - 1]);
        } finally {
            System.setErr(saved);
        }
    }

    private static Path tls(String name) throws URISyntaxException {
        return Path.of(
                ServeSecurityOptionsTest.class.getResource("/tls/" + name).toURI());
    }

    @Test
    void authOptionsAreChecked() throws IOException {
        assertThat(serve("--in-memory", "--auth=sigv4"))
                .isEqualTo(new Result(2, "--auth=sigv4 needs --credentials-file"));
        assertThat(serve("--in-memory", "--auth=basic")).isEqualTo(new Result(2, "--auth must be 'none' or 'sigv4'"));
        Path missing = dir.resolve("missing.json");
        assertThat(serve("--in-memory", "--auth=sigv4", "--credentials-file", missing.toString()))
                .isEqualTo(new Result(2, "credentials file " + missing + ": no such file"));
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"keys\": [{\"accessKeyId\": \"A\"}]}");
        assertThat(serve("--in-memory", "--auth=sigv4", "--credentials-file", bad.toString()))
                .isEqualTo(new Result(2, "credentials file " + bad + ": keys[0]: secretAccessKey is required"));
        assertThat(serve("--in-memory", "--credentials-file", bad.toString()))
                .isEqualTo(new Result(2, "--credentials-file needs --auth=sigv4"));
    }

    @Test
    void tlsOptionsAreChecked() throws IOException, URISyntaxException {
        assertThat(serve("--in-memory", "--tls-cert", tls("cert.pem").toString()))
                .isEqualTo(new Result(2, "--tls-cert and --tls-key go together"));
        Path missing = dir.resolve("missing.pem");
        assertThat(serve(
                        "--in-memory",
                        "--tls-cert",
                        missing.toString(),
                        "--tls-key",
                        tls("key.pem").toString()))
                .isEqualTo(new Result(2, "--tls-cert " + missing + ": no such readable file"));
        Path garbage = dir.resolve("garbage.pem");
        Files.writeString(garbage, "not a pem");
        Result r = serve("--in-memory", "--tls-cert", tls("cert.pem").toString(), "--tls-key", garbage.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.stderr())
                .startsWith("--tls-cert " + tls("cert.pem") + " / --tls-key " + garbage
                        + ": not a usable PEM certificate and PKCS#8 private key (");
    }
}
