package dev.kumiko.ignite.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Ignite server JVMs of a local cluster, one per node, each with its directory under the work
 * dir: {@code node-i/config.conf}, {@code node-i/work}, {@code node-i/node.log} and
 * {@code node-i/pid}. They outlive the launcher; {@link #stop} finds them by their pid files.
 */
final class NodeProcesses {
    static final String MAIN_CLASS = "org.apache.ignite.internal.app.IgniteRunner";
    /** Ignite 3 nodes reach into the JDK's internals (its documented JVM options for Java 17). */
    static final List<String> JVM_FLAGS = List.of(
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.math=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.access=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true");
    /** A small node for a laptop or CI; KUMIKO_IGNITE_JAVA_OPTS adds to (and so overrides) it. */
    static final String HEAP_DEFAULT = "-Xmx512m";

    static final long STOP_WAIT_MILLIS = 30_000;

    private NodeProcesses() {}

    static Path nodeDir(Path workDir, int node) {
        return workDir.resolve("node-" + node);
    }

    static long start(NodeLayout layout, int node, Path workDir, String classpath, List<String> extraOpts) {
        try {
            Path dir = nodeDir(workDir, node);
            Files.createDirectories(dir.resolve("work"));
            Path config = dir.resolve("config.conf");
            Files.writeString(config, layout.config(node), StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add(HEAP_DEFAULT);
            command.addAll(JVM_FLAGS);
            command.addAll(extraOpts);
            command.addAll(List.of(
                    "-cp",
                    classpath,
                    MAIN_CLASS,
                    "--config-path",
                    config.toString(),
                    "--work-dir",
                    dir.resolve("work").toString(),
                    "--node-name",
                    layout.name(node)));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve("node.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            Files.writeString(dir.resolve("pid"), Long.toString(process.pid()), StandardCharsets.UTF_8);
            return process.pid();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Ignite node " + node, e);
        }
    }

    static boolean alive(Path workDir, int node) {
        return handle(workDir, node).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Kills one node at once (SIGKILL), as a crash would, and waits for it to be gone. */
    static void kill(Path workDir, int node) {
        handle(workDir, node).filter(ProcessHandle::isAlive).ifPresent(p -> {
            p.destroyForcibly();
            try {
                p.onExit().get(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("Ignite node " + node + " (pid " + p.pid() + ") did not exit", e);
            }
        });
    }

    /** Stops every node with a pid file under workDir (TERM, then KILL after a wait); returns how many. */
    static int stop(Path workDir) {
        List<ProcessHandle> running = new ArrayList<>();
        for (int node = 0; node < NodeLayout.NODES_MAX; node++) {
            handle(workDir, node).filter(ProcessHandle::isAlive).ifPresent(running::add);
        }
        running.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : running) {
            try {
                p.onExit().get(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
        for (int node = 0; node < NodeLayout.NODES_MAX; node++) {
            try {
                Files.deleteIfExists(nodeDir(workDir, node).resolve("pid"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return running.size();
    }

    private static Optional<ProcessHandle> handle(Path workDir, int node) {
        Path pidFile = nodeDir(workDir, node).resolve("pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(
                    Files.readString(pidFile, StandardCharsets.UTF_8).trim());
            // A pid file outliving a reboot may name another program now: only a JVM counts.
            return ProcessHandle.of(pid)
                    .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(true));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
