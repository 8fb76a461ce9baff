package dev.kumiko.ignite.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@code kumiko ignite}'s command line (issue #63): a mistyped command or option gets the nearest one, an
 * option of the other command is refused rather than ignored, and each failure is one line with its fix
 * and exit code 2. None of these starts a node.
 */
class IgniteCommandTest {
    private record Run(int code, String err) {}

    private static Run run(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            return new Run(IgniteCommand.exitCode(args), bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void aMistypedOptionGetsTheNearestInOneLine() {
        Run r = run("start", "--nodse", "3", "--base-port", "10300", "--work-dir", "w");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo("kumiko ignite: unknown option --nodse (did you mean --nodes?); "
                        + "`kumiko ignite --help` shows the usage\n");
    }

    @Test
    void aMistypedCommandGetsTheNearest() {
        assertThat(run("strat", "--work-dir", "w").err())
                .isEqualTo("kumiko ignite: unknown command strat (did you "
                        + "mean start?); `kumiko ignite --help` shows the usage\n");
    }

    @Test
    void anOptionOfTheOtherCommandIsRefused() {
        Run r = run("stop", "--work-dir", "w", "--nodes", "3");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo("kumiko ignite: --nodes is not an option of stop; `kumiko ignite --help` shows "
                        + "the usage\n");
    }

    @Test
    void aMissingOrRepeatedValueIsOneLine() {
        assertThat(run("stop").err())
                .isEqualTo("kumiko ignite: --work-dir is required; `kumiko ignite --help` shows " + "the usage\n");
        assertThat(run("stop", "--work-dir", "a", "--work-dir", "b").err())
                .isEqualTo("kumiko ignite: --work-dir is " + "given twice; `kumiko ignite --help` shows the usage\n");
        assertThat(run("start", "--work-dir", "w", "--nodes").err())
                .isEqualTo("kumiko ignite: --nodes needs a value; " + "`kumiko ignite --help` shows the usage\n");
    }

    @Test
    void restartNeedsAClusterStartedFromTheWorkDir() {
        Run r = run("restart", "--node", "1", "--work-dir", "no-such-dir", "--node-classpath", "x");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("kumiko ignite: no cluster started from ")
                .contains("no-such-dir");
        assertThat(run("restart", "--work-dir", "w", "--nodes", "1").err())
                .isEqualTo("kumiko ignite: --nodes is not an option of restart; `kumiko ignite --help` shows "
                        + "the usage\n");
    }
}
