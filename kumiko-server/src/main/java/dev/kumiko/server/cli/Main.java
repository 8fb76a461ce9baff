package dev.kumiko.server.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kumiko <command>}: the command-line entry point. */
@Command(
        name = "kumiko",
        mixinStandardHelpOptions = true,
        version = "kumiko 0.9.0",
        description = "A DynamoDB-compatible database.")
public final class Main implements Runnable {
    /**
     * The subcommands by name, in the order help lists them. picocli builds a command's model by
     * reflection over its annotations; building the three that a `serve` does not run took about
     * 50 ms of a server's start, so only the command named on the command line is added.
     */
    private static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

    @Spec
    private CommandSpec spec;

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        m.put("serve", ServeCommand.class);
        m.put("export", ExportCommand.class);
        m.put("import", ImportCommand.class);
        m.put("model", dev.kumiko.tools.model.ModelCommand.class);
        m.put("ignite", IgniteEntry.class);
        return Collections.unmodifiableMap(m);
    }

    @Override
    public void run() {
        CommandLine cmd = spec.commandLine();
        cmd.usage(cmd.getOut());
    }

    /**
     * The command line for args: with only the subcommand args name, or every subcommand when
     * args name none (help, a version, a mistyped name that picocli then suggests a match for).
     */
    public static CommandLine commandLine(String... args) {
        CommandLine cmd = new CommandLine(new Main());
        Class<?> named = args.length > 0 ? SUBCOMMANDS.get(args[0]) : null;
        if (named != null) {
            cmd.addSubcommand(args[0], named);
        } else {
            SUBCOMMANDS.forEach(cmd::addSubcommand);
        }
        // Set after the subcommands are added: picocli hands the handler to those it already has.
        return cmd.setExecutionExceptionHandler(Main::unexpected).setParameterExceptionHandler(new UsageErrors());
    }

    /**
     * A failure no check foresaw: one line, not a stack trace, unless KUMIKO_DEBUG=1 asks for it
     * (a user reads the line; a bug report wants the trace).
     */
    private static int unexpected(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        if ("1".equals(System.getenv("KUMIKO_DEBUG"))) {
            e.printStackTrace();
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String detail = root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
        System.err.println("kumiko: " + detail + " [KUMIKO_DEBUG=1 prints the stack trace]");
        return 1;
    }

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the command line and returns its exit code. A `serve` whose arguments are all plain
     * skips picocli's reflection (ServeArgs); everything else is picocli's.
     */
    static int run(String... args) {
        ServeCommand serve = ServeArgs.parse(args);
        if (serve == null) {
            return commandLine(args).execute(args);
        }
        try {
            return serve.call();
        } catch (Exception e) { // as picocli's execute hands a command's exception to its handler
            return unexpected(e, null, null);
        }
    }
}
