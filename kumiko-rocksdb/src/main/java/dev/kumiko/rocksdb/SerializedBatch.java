package dev.kumiko.rocksdb;

import dev.kumiko.storage.WriteBatch;

/**
 * A batch in RocksDB's own WriteBatch format, built in Java so that handing it to RocksDB is one
 * JNI call ({@code new org.rocksdb.WriteBatch(byte[])}) instead of one per put, delete and merge.
 *
 * <p>The format (RocksDB's db/write_batch.cc, stable across releases since it is also the WAL's
 * record format): an 8-byte little-endian sequence number (RocksDB assigns it on write; 0 here), a
 * 4-byte little-endian count of records, then per record a one-byte type (kTypeValue 0x1 with key
 * and value, kTypeDeletion 0x0 with key, kTypeMerge 0x2 with key and operand), each key and value
 * as a varint32 length and its bytes, for the default column family.
 */
final class SerializedBatch {
    static final int HEADER_BYTES = 12;
    static final byte TYPE_DELETION = 0x0;
    static final byte TYPE_VALUE = 0x1;
    static final byte TYPE_MERGE = 0x2;

    private SerializedBatch() {}

    /** Merges (counter additions) carry their delta as the operand, as the uint64add operator reads it. */
    static byte[] of(WriteBatch batch) {
        byte[] out = new byte[sizeBytes(batch)];
        int count = batch.size();
        int pos = HEADER_BYTES;
        for (WriteBatch.Op op : batch.ops()) {
            byte[] value = op.value(); // null exactly for a delete (an add carries its delta)
            if (value == null) {
                out[pos++] = TYPE_DELETION;
                pos = slice(out, pos, op.key());
            } else {
                out[pos++] = op.isAdd() ? TYPE_MERGE : TYPE_VALUE;
                pos = slice(out, pos, op.key());
                pos = slice(out, pos, value);
            }
        }
        out[8] = (byte) count;
        out[9] = (byte) (count >>> 8);
        out[10] = (byte) (count >>> 16);
        out[11] = (byte) (count >>> 24);
        assert pos == out.length;
        return out;
    }

    /** The exact size, so that the batch is one array allocated once. */
    private static int sizeBytes(WriteBatch batch) {
        long total = HEADER_BYTES;
        for (WriteBatch.Op op : batch.ops()) {
            total += 1 + varintBytes(op.key().length) + op.key().length;
            if (op.value() != null) {
                total += varintBytes(op.value().length) + op.value().length;
            }
        }
        return Math.toIntExact(total);
    }

    private static int varintBytes(int n) {
        int bytes = 1;
        while ((n & ~0x7F) != 0) {
            n >>>= 7;
            bytes++;
        }
        return bytes;
    }

    private static int slice(byte[] out, int pos, byte[] bytes) {
        int n = bytes.length;
        while ((n & ~0x7F) != 0) {
            out[pos++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out[pos++] = (byte) n;
        System.arraycopy(bytes, 0, out, pos, bytes.length);
        return pos + bytes.length;
    }
}
