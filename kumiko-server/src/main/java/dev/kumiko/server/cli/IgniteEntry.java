package dev.kumiko.server.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code kumiko ignite}: listed with the other commands, though the launcher lives in the kumiko-ignite jar
 * (so that the default server never loads Ignite's client). bin/kumiko runs that jar's launcher directly;
 * this entry is reached only when the server jar is run another way ({@code java -jar kumiko.jar ignite}),
 * where it hands the arguments to the launcher if its jar is on the class path, and otherwise says in one
 * line how to run it.
 */
@Command(
        name = "ignite",
        description =
                "Start or stop a local Apache Ignite 3 cluster for `serve --store ignite` " + "(docs/distributed.md).")
public final class IgniteEntry implements Callable<Integer> {
    static final String LAUNCHER = "dev.kumiko.ignite.launch.IgniteCommand";

    @CommandLine.Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws ReflectiveOperationException {
        Method run;
        try {
            run = Class.forName(LAUNCHER).getDeclaredMethod("exitCode", String[].class);
        } catch (ClassNotFoundException e) {
            String again = args.isEmpty() ? "bin/kumiko ignite --help" : "bin/kumiko ignite " + String.join(" ", args);
            System.err.println("kumiko ignite: the Ignite launcher is in the kumiko-ignite jar, which bin/kumiko puts "
                    + "on the class path: run `" + again + "`");
            return StartupChecks.EXIT_USAGE;
        }
        try {
            return (Integer) run.invoke(null, (Object) args.toArray(new String[0]));
        } catch (InvocationTargetException e) {
            // exitCode answers its failures itself; what escapes it is a bug, which Main's handler reports.
            throw new IllegalStateException(String.valueOf(e.getCause()), e.getCause());
        }
    }
}
