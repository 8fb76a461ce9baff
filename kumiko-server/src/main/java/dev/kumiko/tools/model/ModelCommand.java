package dev.kumiko.tools.model;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kumiko model}: tools for single-table models (docs/modeling.md). */
@Command(
        name = "model",
        mixinStandardHelpOptions = true,
        description = "Single-table models: run their access patterns, report cost, enforce budgets.",
        subcommands = {ModelCheckCommand.class})
public final class ModelCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
