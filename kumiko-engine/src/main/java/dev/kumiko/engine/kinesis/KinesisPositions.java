package dev.kumiko.engine.kinesis;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where each destination's shipping stands: {@code 0x0F tableId streamArn} holds the number of the
 * next change-log record to ship. It moves only after Kinesis accepted the records before it, so a
 * crash sends some records again (Kinesis consumers see such duplicates, as with DynamoDB). The
 * keys go with the table (Catalog's drop deletes the table's range).
 */
final class KinesisPositions {
    private final Store store;

    KinesisPositions(Store store) {
        this.store = store;
    }

    /** The next record to ship, or 0 when the destination has no position (it never shipped here). */
    long next(int tableId, String streamArn) {
        byte[] v = store.get(key(tableId, streamArn));
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    void save(int tableId, String streamArn, long next) {
        assert next >= 1;
        store.apply(new WriteBatch()
                .put(
                        key(tableId, streamArn),
                        ByteBuffer.allocate(8).putLong(next).array()));
    }

    void forget(int tableId, String streamArn) {
        store.apply(new WriteBatch().delete(key(tableId, streamArn)));
    }

    private static byte[] key(int tableId, String streamArn) {
        byte[] arn = streamArn.getBytes(StandardCharsets.UTF_8);
        return new ByteSink(5 + arn.length)
                .put(KeySpace.KINESIS)
                .putIntBigEndian(tableId)
                .put(arn)
                .toArray();
    }
}
