package dev.kumiko.engine.replication;

import dev.kumiko.keys.KeySpace;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Where global tables keep their state in the store (space {@link KeySpace#REPLICATION}):
 *
 * <pre>
 * 0x0E 0x01 tableName              -> the table's replica set
 * 0x0E 0x02 itemStorageKey         -> the stamp of the item's current version (kept after a delete)
 * 0x0E 0x03 tableId                -> every local change-log record below this number is stamped
 * 0x0E 0x04 tableId region         -> the next change-log record to ship to region
 * 0x0E 0x05 tableId region         -> the backfill of region's new replica resumes after this item key
 *                                     (0x00: not started; only the region that created the replica has one)
 * </pre>
 *
 * The stamp key holds the item's storage key (which starts with its table's id), so a table's stamps
 * are one range.
 */
final class ReplicationKeys {
    private static final byte SET = 0x01;
    private static final byte STAMP = 0x02;
    private static final byte STAMPED = 0x03;
    private static final byte SHIPPED = 0x04;
    private static final byte BACKFILL = 0x05;

    /** The backfill position before the first page: one byte, which no item key is. */
    static final byte[] BACKFILL_NOT_STARTED = {0};

    private ReplicationKeys() {}

    static byte[] set(String tableName) {
        byte[] name = tableName.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + name.length)
                .put(KeySpace.REPLICATION)
                .put(SET)
                .put(name)
                .array();
    }

    static byte[] setsStart() {
        return new byte[] {KeySpace.REPLICATION, SET};
    }

    static byte[] setsEnd() {
        return new byte[] {KeySpace.REPLICATION, SET + 1};
    }

    static String tableNameOfSet(byte[] key) {
        return new String(key, 2, key.length - 2, StandardCharsets.UTF_8);
    }

    static byte[] stamp(byte[] itemStorageKey) {
        return ByteBuffer.allocate(2 + itemStorageKey.length)
                .put(KeySpace.REPLICATION)
                .put(STAMP)
                .put(itemStorageKey)
                .array();
    }

    static byte[] stamped(int tableId) {
        return ByteBuffer.allocate(6)
                .put(KeySpace.REPLICATION)
                .put(STAMPED)
                .putInt(tableId)
                .array();
    }

    static byte[] shipped(int tableId, String region) {
        return perRegion(SHIPPED, tableId, region);
    }

    static byte[] backfill(int tableId, String region) {
        return perRegion(BACKFILL, tableId, region);
    }

    private static byte[] perRegion(byte kind, int tableId, String region) {
        byte[] r = region.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(6 + r.length)
                .put(KeySpace.REPLICATION)
                .put(kind)
                .putInt(tableId)
                .put(r)
                .array();
    }

    static byte[] encodeLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long decodeLong(byte @Nullable [] bytes, long absent) {
        if (bytes == null) {
            return absent;
        }
        if (bytes.length != 8) {
            throw new IllegalStateException("corrupt replication position: " + bytes.length + " bytes");
        }
        return ByteBuffer.wrap(bytes).getLong();
    }
}
