package dev.kumiko.engine.changelog;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import java.nio.ByteBuffer;

/**
 * Keys of the change log space: {@code 0x04 tableId(4) sequence(8)}, big-endian so that a table's
 * records sort by sequence number. Sequence 0 is never a record's: its key holds the trim marker,
 * the lowest sequence number not yet trimmed, so that numbers are never reused after everything
 * was trimmed and a restart.
 */
final class ChangeLogKeys {
    static final int KEY_LENGTH = 13;
    static final long TRIM_MARKER_SEQUENCE = 0;

    private ChangeLogKeys() {}

    static byte[] record(int tableId, long sequence) {
        return new ByteSink(KEY_LENGTH)
                .put(KeySpace.CHANGE_LOG)
                .putIntBigEndian(tableId)
                .putLongBigEndian(sequence)
                .toArray();
    }

    static byte[] trimMarker(int tableId) {
        return record(tableId, TRIM_MARKER_SEQUENCE);
    }

    static long sequenceOf(byte[] key) {
        assert key.length == KEY_LENGTH && key[0] == KeySpace.CHANGE_LOG : "not a change log key";
        return ByteBuffer.wrap(key, 5, 8).getLong();
    }

    static byte[] tableStart(int tableId) {
        return KeySpace.prefix(KeySpace.CHANGE_LOG, tableId);
    }

    static byte[] tableEnd(int tableId) {
        return KeySpace.prefixEnd(KeySpace.CHANGE_LOG, tableId);
    }

    static byte[] encodeLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long decodeLong(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }
}
