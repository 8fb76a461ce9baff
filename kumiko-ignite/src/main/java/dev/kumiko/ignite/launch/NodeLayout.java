package dev.kumiko.ignite.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Names and ports of a local cluster's nodes, all derived from one base port P, so that nothing
 * uses Ignite's default ports: node i listens on P+3i (cluster network), P+3i+1 (client
 * connector, what Kumiko servers connect to) and P+3i+2 (REST, used once to initialise).
 */
public record NodeLayout(int nodes, int basePort) {
    public static final int NODES_MAX = 9;
    static final int PORTS_PER_NODE = 3;
    static final String HOST = "127.0.0.1";
    /**
     * Failure detection: a node that answers no ping is dropped after multiplier x ceil(log2(nodes))
     * x interval, 4 s with 3 nodes (Ignite's defaults, 2,000 ms and 5, make that 20 s). Until a dead
     * node is dropped, the placement driver keeps renewing its primary-replica leases, so the
     * partitions it led take no writes: the whole wait is write downtime. A node must stall for
     * longer than that (a GC pause, a starved CPU) to be dropped while alive.
     */
    static final int FAILURE_PING_INTERVAL_MILLIS = 500;

    static final int SUSPICION_MULTIPLIER = 4;

    public NodeLayout {
        if (nodes < 1 || nodes > NODES_MAX) {
            throw new IllegalArgumentException("--nodes must be between 1 and " + NODES_MAX + ": " + nodes);
        }
        if (basePort < 1024 || basePort + PORTS_PER_NODE * nodes > 65535) {
            throw new IllegalArgumentException("--base-port must leave room for " + PORTS_PER_NODE * nodes
                    + " ports between 1024 and 65535: " + basePort);
        }
    }

    public String name(int node) {
        return "kumiko-" + node;
    }

    public int networkPort(int node) {
        return basePort + PORTS_PER_NODE * node;
    }

    public int clientPort(int node) {
        return networkPort(node) + 1;
    }

    public int restPort(int node) {
        return networkPort(node) + 2;
    }

    /** What {@code kumiko serve --ignite-endpoints} takes: every node's client connector. */
    public String clientEndpoints() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            out.add(HOST + ":" + clientPort(i));
        }
        return String.join(",", out);
    }

    /**
     * The node's configuration (HOCON): ports, the other nodes to find, failure detection, Raft
     * fsync on.
     */
    public String config(int node) {
        List<String> seeds = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            seeds.add("\"" + HOST + ":" + networkPort(i) + "\"");
        }
        return "ignite {\n"
                + "  network {\n"
                + "    port: " + networkPort(node) + "\n"
                + "    nodeFinder.netClusterNodes: [" + String.join(", ", seeds) + "]\n"
                + "    membership {\n"
                + "      failurePingIntervalMillis: " + FAILURE_PING_INTERVAL_MILLIS + "\n"
                + "      scaleCube.membershipSuspicionMultiplier: " + SUSPICION_MULTIPLIER + "\n"
                + "    }\n"
                + "  }\n"
                + "  clientConnector.port: " + clientPort(node) + "\n"
                + "  rest.port: " + restPort(node) + "\n"
                // Ignite's default is off: an acknowledged commit would then sit in the OS page
                // cache of each replica, and a power loss of a majority could take it away.
                + "  raft.fsync: true\n"
                + "}\n";
    }

    /** Nodes that keep the cluster's metadata (Raft): all of them, up to 3. */
    public List<String> metaStorageNodes() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(3, nodes); i++) {
            out.add(name(i));
        }
        return out;
    }
}
