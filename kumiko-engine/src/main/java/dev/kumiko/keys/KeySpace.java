package dev.kumiko.keys;

/**
 * The layout of the store's key space. Each space is a one-byte prefix; a table's or an index's
 * keys follow with its 4-byte id, so that dropping it is one range delete.
 *
 * <pre>
 * 0x01 catalog:   0x01 tableName(UTF-8)                        -> table descriptor
 * 0x02 items:     0x02 tableId hash(pk) enc(pk) [enc(sk)]      -> item
 * 0x03 index:     0x03 indexId hash(ipk) enc(ipk) [enc(isk)] enc(pk) [enc(sk)] -> projected item
 * 0x04 change log 0x04 tableId sequence(8)                     -> change record
 * 0x05 meta:      0x05 name                                    -> counters (next table id, ...)
 * 0x06 stats:     0x06 tableId kind [indexId | hash(pk) enc(pk)] -> counter (item counts, sizes)
 * 0x07 tokens:    0x07 token(UTF-8)                            -> ClientRequestToken record
 * 0x08 leases:    0x08 task(UTF-8)                             -> background task lease
 * 0x09 backups:   0x09 kind ...                                -> backups, PITR base copies, restore jobs
 * 0x0B exchange:  0x0B kind id(UTF-8)                          -> export or import job record
 * 0x0C policies:  0x0C tableId [streamLabel(UTF-8)]             -> resource-based policy and revision
 * 0x0E replication: 0x0E kind ...                            -> global tables' replica sets, stamps, positions
 * 0x0F kinesis:   0x0F tableId streamArn(UTF-8)                -> the next change-log record to ship there
 * </pre>
 */
public final class KeySpace {
    public static final byte CATALOG = 0x01;
    public static final byte ITEMS = 0x02;
    public static final byte INDEX = 0x03;
    public static final byte CHANGE_LOG = 0x04;
    public static final byte META = 0x05;
    public static final byte STATS = 0x06;
    public static final byte TOKENS = 0x07;
    public static final byte LEASES = 0x08;
    /** On-demand backups, point-in-time recovery's base copies and restore jobs (engine.backup). */
    public static final byte BACKUPS = 0x09;

    public static final byte EXCHANGE_JOBS = 0x0B;
    /** Resource-based policies of tables and streams (engine.control.ResourcePolicies). */
    public static final byte RESOURCE_POLICIES = 0x0C;
    /** Global tables (engine.replication, ReplicationKeys). */
    public static final byte REPLICATION = 0x0E;
    /** Kinesis streaming destinations' shipping positions (engine.kinesis). */
    public static final byte KINESIS = 0x0F;

    private KeySpace() {}

    public static byte[] prefix(byte space, int id) {
        return new ByteSink(5).put(space).putIntBigEndian(id).toArray();
    }

    /** The exclusive end of an id's range: the next id's prefix. */
    public static byte[] prefixEnd(byte space, int id) {
        if (id == -1) {
            return new byte[] {(byte) (space + 1)};
        }
        return new ByteSink(5).put(space).putIntBigEndian(id + 1).toArray();
    }
}
