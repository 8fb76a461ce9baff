package dev.kumiko.ignite.launch;

import dev.kumiko.engine.base.Nearest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code kumiko ignite start --nodes N --base-port P --work-dir D [--node-classpath CP]} and
 * {@code kumiko ignite stop --work-dir D}. Start prints progress to stderr and, as its last line on
 * stdout, the cluster's client endpoints for {@code kumiko serve --store ignite --ignite-endpoints}.
 */
public final class IgniteCommand {
    static final String USAGE = """
            usage: kumiko ignite start --nodes N --base-port P --work-dir D [--node-classpath CP]
                   kumiko ignite restart --node I --work-dir D [--node-classpath CP]
                   kumiko ignite stop --work-dir D
            Start runs N Apache Ignite 3 server JVMs on 127.0.0.1 (node i: ports P+3i, P+3i+1 for
            clients, P+3i+2 for REST), initialises the cluster with min(3, N) replicas, and prints
            its client endpoints as its last line. Without --node-classpath, the node's jars are
            resolved from Maven Central with mvn into D/ignite-lib, once. KUMIKO_IGNITE_JAVA_OPTS
            adds JVM options to every node (e.g. -Xmx2g). Restart kills node I of a cluster started
            from D (kill -9) and starts it again with its configuration and data, as Ignite asks of
            a node the others have dropped ("node should be restarted"); it returns once the node's
            REST port answers.""";

    private IgniteCommand() {}

    /** The options each command takes; any other is refused, so a mistyped or misplaced one is not ignored. */
    static final Map<String, Set<String>> OPTIONS = Map.of(
            "start", Set.of("--nodes", "--base-port", "--work-dir", "--node-classpath"),
            "restart", Set.of("--node", "--work-dir", "--node-classpath"),
            "stop", Set.of("--work-dir"));

    public static void main(String[] args) {
        System.exit(exitCode(args));
    }

    /**
     * Runs the command and returns its exit code: 0, 2 for a command line that cannot be used, 1 for a
     * start or stop that failed. Each failure is one line on stderr with its fix.
     */
    public static int exitCode(String[] args) {
        try {
            return run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("kumiko ignite: " + e.getMessage() + "; `kumiko ignite --help` shows the usage");
            return 2;
        } catch (RuntimeException e) {
            System.err.println("kumiko ignite: " + e.getMessage());
            return 1;
        }
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        Set<String> allowed = OPTIONS.get(args[0]);
        if (allowed == null) {
            throw new IllegalArgumentException("unknown command " + args[0] + hint(args[0], OPTIONS.keySet()));
        }
        Map<String, String> options = options(Arrays.copyOfRange(args, 1, args.length), args[0], allowed);
        Path workDir = Path.of(required(options, "--work-dir")).toAbsolutePath();
        switch (args[0]) {
            case "start" -> {
                NodeLayout layout = new NodeLayout(integer(options, "--nodes"), integer(options, "--base-port"));
                String classpath = options.containsKey("--node-classpath")
                        ? options.get("--node-classpath")
                        : NodeClasspath.resolve(workDir.resolve("ignite-lib"));
                System.err.println("kumiko: starting " + layout.nodes() + " Ignite node(s) in " + workDir + "...");
                String endpoints = IgniteCluster.start(layout, workDir, classpath, javaOpts());
                System.out.println(endpoints);
                return 0;
            }
            case "restart" -> {
                int node = integer(options, "--node");
                String classpath = options.containsKey("--node-classpath")
                        ? options.get("--node-classpath")
                        : NodeClasspath.resolve(workDir.resolve("ignite-lib"));
                long pid = IgniteCluster.restart(workDir, node, classpath, javaOpts());
                System.err.println("kumiko: restarted Ignite node " + node + " of " + workDir + " (pid " + pid + ")");
                return 0;
            }
            case "stop" -> {
                int stopped = IgniteCluster.stop(workDir);
                System.err.println("kumiko: stopped " + stopped + " Ignite node(s) of " + workDir);
                return 0;
            }
            default -> throw new IllegalStateException("OPTIONS and run disagree on " + args[0]);
        }
    }

    private static Map<String, String> options(String[] args, String command, Set<String> allowed) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + arg);
            }
            if (!allowed.contains(name)) {
                boolean ofOther = OPTIONS.values().stream().anyMatch(o -> o.contains(name));
                throw new IllegalArgumentException(
                        ofOther
                                ? name + " is not an option of " + command
                                : "unknown option " + name + hint(name, allowed));
            }
            if (out.containsKey(name)) {
                throw new IllegalArgumentException(name + " is given twice");
            }
            if (eq > 0) {
                out.put(name, arg.substring(eq + 1));
            } else if (i + 1 < args.length) {
                out.put(name, args[++i]);
            } else {
                throw new IllegalArgumentException(name + " needs a value");
            }
        }
        return out;
    }

    private static String hint(String typed, Set<String> candidates) {
        String near = Nearest.of(typed, new java.util.TreeSet<>(candidates));
        return near == null ? "" : " (did you mean " + near + "?)";
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return value;
    }

    private static int integer(Map<String, String> options, String name) {
        String value = required(options, name);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number: " + value);
        }
    }

    private static List<String> javaOpts() {
        String opts = System.getenv("KUMIKO_IGNITE_JAVA_OPTS");
        return opts == null || opts.isBlank()
                ? List.of()
                : new ArrayList<>(Arrays.asList(opts.trim().split("\\s+")));
    }
}
