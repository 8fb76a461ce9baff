package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line builds only the subcommand it is asked to run, and still lists, suggests and
 * explains every subcommand when none is named.
 */
class MainCommandLineTest {
    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        assertThat(Main.commandLine("serve", "--in-memory").getSubcommands()).containsOnlyKeys("serve");
        assertThat(Main.commandLine("model", "check").getSubcommands()).containsOnlyKeys("model");
    }

    @Test
    void helpListsEverySubcommandInOrder() {
        Run help = run("--help");
        assertThat(help.code).isZero();
        assertThat(help.out).containsSubsequence("Commands:", "serve", "export", "import", "model", "ignite");
    }

    @Test
    void noArgumentsPrintTheSameUsage() {
        assertThat(run().out).contains("Commands:", "serve", "model");
    }

    @Test
    void aMistypedSubcommandIsAnsweredWithTheClosestName() {
        Run typo = run("sevre");
        assertThat(typo.code).isEqualTo(2);
        assertThat(typo.err)
                .isEqualTo("kumiko: unknown command sevre (did you mean serve?); `kumiko --help` lists "
                        + "the commands\n");
    }

    @Test
    void aSubcommandsHelpNamesItUnderKumiko() {
        Run help = run("serve", "--help");
        assertThat(help.code).isZero();
        assertThat(help.out).startsWith("Usage: kumiko serve");
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine(args).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private record Run(int code, String out, String err) {}
}
