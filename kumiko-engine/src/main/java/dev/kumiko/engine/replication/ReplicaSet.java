package dev.kumiko.engine.replication;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The regions that hold a global table, each with its replica's status. Every region of the set
 * keeps the same set in its store under the table's name (a replica's table has the same name in
 * every region, as in DynamoDB); the region that changed it sends it to the others.
 *
 * <p>A set made by the legacy API (version 2017.11.29, CreateGlobalTable) says so and keeps its
 * creation time, which DescribeGlobalTable reports; it may hold a single region, which a set of the
 * current version never does (one region is no global table there).
 *
 * <p>Stored as lines of {@code region TAB status}, which keeps the format readable in a dump; a
 * legacy set starts with the line {@code @2017.11.29 TAB createdMillis}.
 */
public record ReplicaSet(String tableName, List<Replica> replicas, String version, long createdMillis) {
    /** DynamoDB allows a table in every commercial region; 32 bounds what one request may grow it to. */
    public static final int REPLICAS_MAX = 32;
    /** The current version, made by UpdateTable ReplicaUpdates. */
    public static final String CURRENT = "2019.11.21";
    /** The legacy version, made by CreateGlobalTable. */
    public static final String LEGACY = "2017.11.29";

    public record Replica(String region, ReplicaStatus status) {
        public Replica {
            assert !region.isEmpty() && region.length() <= Stamp.REGION_BYTES_MAX : region;
            assert region.indexOf('\t') < 0 && region.indexOf('\n') < 0 : region;
        }
    }

    public ReplicaSet {
        replicas = List.copyOf(replicas);
        assert replicas.size() <= REPLICAS_MAX : replicas.size();
        assert version.equals(CURRENT) || version.equals(LEGACY) : version;
        assert createdMillis >= 0 : createdMillis;
    }

    /** A set of the current version. */
    public ReplicaSet(String tableName, List<Replica> replicas) {
        this(tableName, replicas, CURRENT, 0);
    }

    public boolean legacy() {
        return version.equals(LEGACY);
    }

    public @Nullable Replica replica(String region) {
        for (Replica r : replicas) {
            if (r.region().equals(region)) {
                return r;
            }
        }
        return null;
    }

    public boolean holds(String region) {
        return replica(region) != null;
    }

    /** This set with region's replica added, or its status changed. */
    public ReplicaSet with(String region, ReplicaStatus status) {
        List<Replica> out = new ArrayList<>(replicas.size() + 1);
        boolean found = false;
        for (Replica r : replicas) {
            if (r.region().equals(region)) {
                out.add(new Replica(region, status));
                found = true;
            } else {
                out.add(r);
            }
        }
        if (!found) {
            out.add(new Replica(region, status));
        }
        return new ReplicaSet(tableName, out, version, createdMillis);
    }

    public ReplicaSet without(String region) {
        List<Replica> out = new ArrayList<>(replicas.size());
        for (Replica r : replicas) {
            if (!r.region().equals(region)) {
                out.add(r);
            }
        }
        return new ReplicaSet(tableName, out, version, createdMillis);
    }

    /** The regions other than local that hold a replica. */
    public List<String> peersOf(String local) {
        List<String> out = new ArrayList<>(replicas.size());
        for (Replica r : replicas) {
            if (!r.region().equals(local)) {
                out.add(r.region());
            }
        }
        return out;
    }

    public byte[] encode() {
        StringBuilder s = new StringBuilder();
        if (legacy()) {
            s.append('@').append(LEGACY).append('\t').append(createdMillis).append('\n');
        }
        for (Replica r : replicas) {
            s.append(r.region()).append('\t').append(r.status().name()).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static ReplicaSet decode(String tableName, byte[] bytes) {
        List<Replica> out = new ArrayList<>();
        String version = CURRENT;
        long created = 0;
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            int tab = line.indexOf('\t');
            if (tab <= 0) {
                throw new IllegalStateException("corrupt replica set of " + tableName);
            }
            if (line.startsWith("@" + LEGACY + "\t")) {
                version = LEGACY;
                created = Long.parseLong(line.substring(tab + 1));
                continue;
            }
            out.add(new Replica(line.substring(0, tab), ReplicaStatus.valueOf(line.substring(tab + 1))));
        }
        return new ReplicaSet(tableName, out, version, created);
    }
}
