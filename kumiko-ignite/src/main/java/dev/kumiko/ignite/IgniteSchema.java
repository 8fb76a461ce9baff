package dev.kumiko.ignite;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;

/**
 * The tables Kumiko keeps in Ignite, created on first connect if missing (every statement is
 * IF NOT EXISTS, so servers starting together agree; none runs once all are there). Each table's primary key leads with G, the
 * key's colocation group ({@link Colocation}), and is colocated by it.
 *
 * <ul>
 *   <li>{@value #DATA}: the ordered key-value space; a sorted index on K gives the range scans in
 *       unsigned byte order, ascending and descending.
 *   <li>{@value #DELTAS}: counter additions not yet folded into their counter ({@link CounterFolds}).
 *   <li>{@value #CLAIMS}: keys claimed by a running TransactWriteItems ({@link Claims}).
 *   <li>{@value #LOCKS}: one empty row per key a read-write transaction has read, written by the
 *       transaction before its read so that it holds the key's exclusive lock first
 *       ({@link IgniteTransaction}).
 * </ul>
 */
final class IgniteSchema {
    static final String ZONE = "KUMIKO";
    static final String DATA = "KUMIKO_KV";
    static final String DELTAS = "KUMIKO_DELTAS";
    static final String CLAIMS = "KUMIKO_CLAIMS";
    static final String LOCKS = "KUMIKO_LOCKS";
    /** The sorted index on K of each table that has one: every range read goes through it. */
    static final String DATA_BY_KEY = DATA + "_BY_KEY";

    static final String LOCKS_BY_KEY = LOCKS + "_BY_KEY";
    /** A key is at most a few KB (DynamoDB: 2 KB partition key, 1 KB sort key, plus index keys). */
    static final int KEY_BYTES_MAX = 8 * 1024;
    /** An item is at most 400 KB; a catalog descriptor or change record (two images) stays below this. */
    static final int VALUE_BYTES_MAX = 4 * 1024 * 1024;
    /** Raft copies of each partition; fewer when the cluster has fewer nodes. */
    static final int REPLICAS_MAX = 3;

    static final int PARTITIONS_PER_NODE = 8;

    private IgniteSchema() {}

    /**
     * The hint that makes a range read use its index: without it, Ignite 3.1's planner chose a full
     * table scan for a descending range, and for a range with LIMIT, on a 3-node cluster (EXPLAIN;
     * its statistics say the tables are empty when a server first plans them, and the plan is
     * cached). A full scan reads every row of every table, so it costs the whole store, and it met
     * any row still carrying another transaction's write intent: a read-only scan that must resolve
     * such an intent through its commit partition failed on that row for minutes on 3.1
     * ("Failed to get the primary replica", the placement driver looking up the zone by the
     * table's id), which failed every change-log read and so every write to a new table
     * (scripts/ignite-cluster.sh in CI). Through the index a read meets only the rows in its range.
     */
    static String forceIndex(String index) {
        return "/*+ FORCE_INDEX(" + index + ") */";
    }

    /** Creates the zone and tables if missing; replicas = min(3, nodes). */
    static void ensure(IgniteClient client, int nodes) {
        if (complete(client)) {
            return;
        }
        int replicas = Math.min(REPLICAS_MAX, Math.max(1, nodes));
        int partitions = PARTITIONS_PER_NODE * Math.max(1, nodes);
        String bytesKey = "VARBINARY(" + KEY_BYTES_MAX + ")";
        String[] statements = {
            "CREATE ZONE IF NOT EXISTS " + ZONE + " (PARTITIONS " + partitions + ", REPLICAS " + replicas
                    + ") STORAGE PROFILES ['default']",
            "CREATE TABLE IF NOT EXISTS " + DATA + " (G " + bytesKey + ", K " + bytesKey + ", V VARBINARY("
                    + VALUE_BYTES_MAX + ") NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE " + ZONE,
            "CREATE INDEX IF NOT EXISTS " + DATA_BY_KEY + " ON " + DATA + " USING SORTED (K ASC)",
            "CREATE TABLE IF NOT EXISTS " + DELTAS + " (G " + bytesKey + ", ID VARBINARY(16), K " + bytesKey
                    + " NOT NULL, D BIGINT NOT NULL, PRIMARY KEY (G, ID)) COLOCATE BY (G) ZONE " + ZONE,
            "CREATE TABLE IF NOT EXISTS " + CLAIMS + " (G " + bytesKey + ", K " + bytesKey
                    + ", OWNER VARCHAR(36) NOT NULL, EXPIRES BIGINT NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE "
                    + ZONE,
            "CREATE TABLE IF NOT EXISTS " + LOCKS + " (G " + bytesKey + ", K " + bytesKey
                    + ", V VARBINARY(1) NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE " + ZONE,
            "CREATE INDEX IF NOT EXISTS " + LOCKS_BY_KEY + " ON " + LOCKS + " USING SORTED (K ASC)",
        };
        for (String sql : statements) {
            client.sql().execute(null, sql).close();
        }
    }

    /**
     * Whether every table and sorted index is there already (a restart, or a second server): then
     * no DDL runs at all. A server restarted after kill -9 on a 3-node cluster hung in one of the
     * IF NOT EXISTS statements, four restarts in a row (scripts/faults.sh; the statement and the
     * cause are not known). A table is there when its primary-key index is, which Ignite names
     * TABLE_PK; when the catalog cannot be read, or that naming changes, the statements run as
     * before.
     */
    static boolean complete(IgniteClient client) {
        Set<String> indexes = new HashSet<>();
        try (ResultSet<SqlRow> rows = client.sql().execute(null, "SELECT INDEX_NAME FROM SYSTEM.INDEXES")) {
            rows.forEachRemaining(r -> indexes.add(r.stringValue(0)));
        } catch (RuntimeException unreadable) {
            return false;
        }
        return indexes.containsAll(
                List.of(DATA + "_PK", DATA_BY_KEY, DELTAS + "_PK", CLAIMS + "_PK", LOCKS + "_PK", LOCKS_BY_KEY));
    }
}
