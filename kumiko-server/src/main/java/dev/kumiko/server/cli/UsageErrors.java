package dev.kumiko.server.cli;

import dev.kumiko.engine.base.Nearest;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A command line picocli cannot parse, said in one line with its fix, exit code 2 (README: "2: an invalid
 * option"). picocli's own answer is its message and the whole usage, about a hundred lines for
 * {@code serve}, in which the one line that matters scrolls away:
 * <pre>
 * kumiko serve: unknown option --prot (did you mean --port?); `kumiko serve --help` lists the options
 * </pre>
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        cmd.getErr().println(line(ex));
        cmd.getErr().flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The one line: command, problem, fix. */
    static String line(ParameterException ex) {
        CommandSpec spec = ex.getCommandLine().getCommandSpec();
        String name = spec.qualifiedName();
        if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            if (first.startsWith("-")) {
                String option = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
                return name + ": unknown option " + option + hint(option, optionNames(spec)) + "; `" + name
                        + " --help` lists the options";
            }
            if (!spec.subcommands().isEmpty()) {
                return name + ": unknown command " + first
                        + hint(first, new ArrayList<>(spec.subcommands().keySet())) + "; `" + name
                        + " --help` lists the commands";
            }
            return name + ": unexpected argument " + first + "; `" + name + " --help` shows what it takes";
        }
        return name + ": " + problem(ex.getMessage()) + "; `" + name + " --help` lists the options";
    }

    /** The options a user may be told about: each visible option's names. */
    static List<String> optionNames(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                names.addAll(List.of(o.names()));
            }
        }
        return names;
    }

    private static String hint(String typed, List<String> candidates) {
        String near = Nearest.of(typed, candidates);
        return near == null ? "" : " (did you mean " + near + "?)";
    }

    /** picocli's message, first line, without its "Error: " and in the lower case of the rest of the line. */
    private static String problem(String message) {
        String m = message == null ? "invalid command line" : message.strip();
        int newline = m.indexOf('\n');
        if (newline >= 0) {
            m = m.substring(0, newline);
        }
        if (m.startsWith("Error: ")) {
            m = m.substring("Error: ".length());
        }
        return m.isEmpty() ? m : Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }
}
