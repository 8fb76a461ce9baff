package dev.kumiko.ignite;

import dev.kumiko.ignite.launch.IgniteCluster;
import dev.kumiko.ignite.launch.NodeLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.ignite.client.IgniteClient;

/**
 * One real Ignite node for the whole test JVM, started in a child JVM on the test class path by the
 * launcher that {@code kumiko ignite start} uses, and stopped when the JVM exits.
 */
final class TestCluster {
    /** Below Linux's ephemeral range (32768+), where outgoing connections could take a port. */
    private static final int PORT_LOW = 20_000;

    private static final int PORT_RANGE = 12_000;
    private static String endpoints;
    private static RuntimeException failed;

    private TestCluster() {}

    @SuppressWarnings("StaticAssignmentOfThrowable") // the start failed once: every later test class sees why
    static synchronized String endpoints() {
        if (failed != null) {
            throw failed;
        }
        if (endpoints == null) {
            try {
                endpoints = start();
            } catch (RuntimeException e) {
                failed = e;
                throw e;
            }
        }
        return endpoints;
    }

    private static String start() {
        try {
            Path workDir = Files.createTempDirectory("kumiko-ignite-test");
            NodeLayout layout = new NodeLayout(1, freeBasePort());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> IgniteCluster.stop(workDir)));
            String classpath = System.getProperty("java.class.path");
            List<String> flags = Arrays.asList(
                    System.getProperty("kumiko.ignite.nodeJvmFlags", "").trim().split("\\s+"));
            return IgniteCluster.start(layout, workDir, classpath, flags.get(0).isEmpty() ? List.of() : flags);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freeBasePort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = PORT_LOW + 3 * ThreadLocalRandom.current().nextInt(PORT_RANGE / 3);
            if (free(base) && free(base + 1) && free(base + 2)) {
                return base;
            }
        }
        throw new IllegalStateException("no free ports");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A store over the test node with every Kumiko table emptied. */
    static IgniteStore emptyStore() {
        String at = endpoints();
        try (IgniteClient client =
                IgniteClient.builder().addresses(at.split(",")).build()) {
            for (String table :
                    List.of(IgniteSchema.DATA, IgniteSchema.DELTAS, IgniteSchema.CLAIMS, IgniteSchema.LOCKS)) {
                client.sql().execute(null, "DELETE FROM " + table).close();
            }
        }
        return IgniteStore.connect(List.of(at.split(",")));
    }
}
