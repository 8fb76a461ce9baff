package dev.kumiko.ignite;

import org.apache.ignite.client.IgniteClient;

/**
 * The tables Kumiko keeps in Ignite, created on first connect if missing (every statement is
 * IF NOT EXISTS, so servers starting together agree). Each table's primary key leads with G, the
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
    /** A key is at most a few KB (DynamoDB: 2 KB partition key, 1 KB sort key, plus index keys). */
    static final int KEY_BYTES_MAX = 8 * 1024;
    /** An item is at most 400 KB; a catalog descriptor or change record (two images) stays below this. */
    static final int VALUE_BYTES_MAX = 4 * 1024 * 1024;
    /** Raft copies of each partition; fewer when the cluster has fewer nodes. */
    static final int REPLICAS_MAX = 3;

    static final int PARTITIONS_PER_NODE = 8;

    private IgniteSchema() {}

    /** Creates the zone and tables if missing; replicas = min(3, nodes). */
    static void ensure(IgniteClient client, int nodes) {
        int replicas = Math.min(REPLICAS_MAX, Math.max(1, nodes));
        int partitions = PARTITIONS_PER_NODE * Math.max(1, nodes);
        String bytesKey = "VARBINARY(" + KEY_BYTES_MAX + ")";
        String[] statements = {
            "CREATE ZONE IF NOT EXISTS " + ZONE + " (PARTITIONS " + partitions + ", REPLICAS " + replicas
                    + ") STORAGE PROFILES ['default']",
            "CREATE TABLE IF NOT EXISTS " + DATA + " (G " + bytesKey + ", K " + bytesKey + ", V VARBINARY("
                    + VALUE_BYTES_MAX + ") NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE " + ZONE,
            "CREATE INDEX IF NOT EXISTS " + DATA + "_BY_KEY ON " + DATA + " USING SORTED (K ASC)",
            "CREATE TABLE IF NOT EXISTS " + DELTAS + " (G " + bytesKey + ", ID VARBINARY(16), K " + bytesKey
                    + " NOT NULL, D BIGINT NOT NULL, PRIMARY KEY (G, ID)) COLOCATE BY (G) ZONE " + ZONE,
            "CREATE TABLE IF NOT EXISTS " + CLAIMS + " (G " + bytesKey + ", K " + bytesKey
                    + ", OWNER VARCHAR(36) NOT NULL, EXPIRES BIGINT NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE "
                    + ZONE,
            "CREATE TABLE IF NOT EXISTS " + LOCKS + " (G " + bytesKey + ", K " + bytesKey
                    + ", V VARBINARY(1) NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE " + ZONE,
            "CREATE INDEX IF NOT EXISTS " + LOCKS + "_BY_KEY ON " + LOCKS + " USING SORTED (K ASC)",
        };
        for (String sql : statements) {
            client.sql().execute(null, sql).close();
        }
    }
}
