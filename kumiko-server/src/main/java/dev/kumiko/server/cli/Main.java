package dev.kumiko.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kumiko <command>}: the command-line entry point. */
@Command(name = "kumiko", mixinStandardHelpOptions = true, version = "kumiko 0.9.0",
        description = "A DynamoDB-compatible database.",
        subcommands = {ServeCommand.class, ExportCommand.class, ImportCommand.class,
                dev.kumiko.tools.model.ModelCommand.class})
public final class Main implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
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
        int code = new CommandLine(new Main()).setExecutionExceptionHandler(Main::unexpected).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
