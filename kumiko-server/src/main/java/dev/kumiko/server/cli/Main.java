package dev.kumiko.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kumiko <command>}: the command-line entry point. */
@Command(name = "kumiko", mixinStandardHelpOptions = true, version = "kumiko 0.1.0",
        description = "A DynamoDB-compatible database.",
        subcommands = {ServeCommand.class, dev.kumiko.tools.model.ModelCommand.class})
public final class Main implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        int code = new CommandLine(new Main()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
