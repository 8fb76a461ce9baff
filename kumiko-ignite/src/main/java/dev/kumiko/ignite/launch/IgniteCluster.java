package dev.kumiko.ignite.launch;

import dev.kumiko.ignite.IgniteStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A local Ignite 3 cluster for Kumiko: N server JVMs on loopback, initialised, with Kumiko's zone
 * and tables created (replicas = min(3, N)). What {@code kumiko ignite start} and the tests run.
 */
public final class IgniteCluster {
    static final String CLUSTER_NAME = "kumiko";
    /** A node takes 10-40 s to start and join on 2 cores, minutes when the machine is busy. */
    static final long START_WAIT_MILLIS = 300_000;

    static final long POLL_MILLIS = 500;
    static final String ENDPOINTS_FILE = "endpoints";
    /** The cluster's layout, "nodes basePort", so that a node can be restarted with it. */
    static final String LAYOUT_FILE = "layout";

    private IgniteCluster() {}

    /** Starts and initialises the cluster; returns its client endpoints (also in workDir/endpoints). */
    public static String start(NodeLayout layout, Path workDir, String nodeClasspath, List<String> jvmOpts) {
        long deadline = System.currentTimeMillis() + START_WAIT_MILLIS;
        for (int node = 0; node < layout.nodes(); node++) {
            if (NodeProcesses.alive(workDir, node)) {
                throw new IllegalStateException("node " + node + " already runs from " + workDir + ": stop it first");
            }
        }
        write(workDir.resolve(LAYOUT_FILE), layout.nodes() + " " + layout.basePort() + "\n");
        for (int node = 0; node < layout.nodes(); node++) {
            NodeProcesses.start(layout, node, workDir, nodeClasspath, jvmOpts);
        }
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        for (int node = 0; node < layout.nodes(); node++) {
            awaitRest(http, layout, node, workDir, deadline);
        }
        init(http, layout, deadline, workDir);
        String endpoints = layout.clientEndpoints();
        awaitSchema(endpoints, deadline);
        write(workDir.resolve(ENDPOINTS_FILE), endpoints + "\n");
        return endpoints;
    }

    private static void awaitRest(HttpClient http, NodeLayout layout, int node, Path workDir, long deadline) {
        URI state = URI.create("http://" + NodeLayout.HOST + ":" + layout.restPort(node) + "/management/v1/node/state");
        while (true) {
            try {
                http.send(
                        HttpRequest.newBuilder(state)
                                .timeout(Duration.ofSeconds(5))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException e) {
                checkAlive(workDir, node);
                pauseUntil(deadline, "node " + node + "'s REST port " + layout.restPort(node));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    private static void init(HttpClient http, NodeLayout layout, long deadline, Path workDir) {
        String nodes =
                layout.metaStorageNodes().stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(","));
        String body = "{\"metaStorageNodes\":[" + nodes + "],\"cmgNodes\":[" + nodes + "],\"clusterName\":\""
                + CLUSTER_NAME + "\"}";
        URI uri = URI.create("http://" + NodeLayout.HOST + ":" + layout.restPort(0) + "/management/v1/cluster/init");
        while (true) {
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(60))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() / 100 == 2) {
                    return;
                }
                if (response.body().contains("already initialized")) {
                    return;
                }
                checkAlive(workDir, 0);
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(
                            "cluster init failed: HTTP " + response.statusCode() + " " + response.body());
                }
                pauseUntil(deadline, "cluster init");
            } catch (IOException e) {
                pauseUntil(deadline, "cluster init (" + e.getMessage() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Connects as a Kumiko server would, which creates the zone and tables; retried until ready. */
    private static void awaitSchema(String endpoints, long deadline) {
        while (true) {
            try {
                IgniteStore.connect(List.of(endpoints.split(","))).close();
                return;
            } catch (RuntimeException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the cluster did not become ready: " + e.getMessage(), e);
                }
                pauseUntil(deadline, "the cluster");
            }
        }
    }

    private static void checkAlive(Path workDir, int node) {
        if (!NodeProcesses.alive(workDir, node)) {
            throw new IllegalStateException("Ignite node " + node + " exited; see "
                    + NodeProcesses.nodeDir(workDir, node).resolve("node.log"));
        }
    }

    private static void pauseUntil(long deadline, String what) {
        if (System.currentTimeMillis() > deadline) {
            throw new IllegalStateException("timed out after " + START_WAIT_MILLIS + " ms waiting for " + what);
        }
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Kills node {@code node} of the cluster started from workDir (if it runs) and starts it again
     * with its configuration and data; returns its new pid once its REST port answers. The cluster
     * must have been initialised: the node rejoins it.
     */
    public static long restart(Path workDir, int node, String nodeClasspath, List<String> jvmOpts) {
        NodeLayout layout = layout(workDir);
        if (node < 0 || node >= layout.nodes()) {
            throw new IllegalArgumentException(
                    "--node must be between 0 and " + (layout.nodes() - 1) + " for this cluster: " + node);
        }
        long deadline = System.currentTimeMillis() + START_WAIT_MILLIS;
        NodeProcesses.kill(workDir, node);
        long pid = NodeProcesses.start(layout, node, workDir, nodeClasspath, jvmOpts);
        awaitRest(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build(), layout, node, workDir, deadline);
        return pid;
    }

    private static NodeLayout layout(Path workDir) {
        Path file = workDir.resolve(LAYOUT_FILE);
        try {
            String[] parts =
                    Files.readString(file, StandardCharsets.UTF_8).trim().split(" ");
            return new NodeLayout(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("no cluster started from " + workDir + " (" + file + " unreadable)");
        }
    }

    /** Stops every node started from workDir; returns how many were running. */
    public static int stop(Path workDir) {
        return NodeProcesses.stop(workDir);
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
