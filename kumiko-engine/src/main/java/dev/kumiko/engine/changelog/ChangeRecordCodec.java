package dev.kumiko.engine.changelog;

import dev.kumiko.codec.EncodedItem;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.model.AttributeValue;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The stored form of a change record: a version byte, event name, view type, origin, creation
 * time, then the keys and the two images in the item codec's form, each length-prefixed (-1 for
 * an absent image). The sequence number is the key's, not repeated in the value.
 */
final class ChangeRecordCodec {
    private static final int FORMAT_VERSION = 1;
    private static final int ABSENT = -1;

    private ChangeRecordCodec() {}

    /** newItemBytes and oldItemBytes are the images already in item-codec form, or null. */
    @SuppressWarnings("EnumOrdinal") // the ordinals are the stored format; StoredChangeEnumsTest pins them
    static byte[] encode(
            ChangeRecord.EventName event,
            long createdMillis,
            ChangeRecord.ViewType viewType,
            ChangeOrigin origin,
            byte[] keysBytes,
            byte @Nullable [] newItemBytes,
            byte @Nullable [] oldItemBytes) {
        int size = 16 + keysBytes.length + length(newItemBytes) + length(oldItemBytes) + 12;
        ByteSink out = new ByteSink(size)
                .put(FORMAT_VERSION)
                .put(event.ordinal())
                .put(viewType.ordinal())
                .put(origin.ordinal())
                .putLongBigEndian(createdMillis);
        part(out, keysBytes);
        part(out, newItemBytes);
        part(out, oldItemBytes);
        return out.toArray();
    }

    @SuppressWarnings("EnumOrdinal") // see encode
    static ChangeRecord decode(long sequence, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int version = in.get();
        if (version != FORMAT_VERSION) {
            throw new IllegalStateException("unknown change record format version " + version);
        }
        ChangeRecord.EventName event = ChangeRecord.EventName.values()[in.get()];
        ChangeRecord.ViewType viewType = ChangeRecord.ViewType.values()[in.get()];
        ChangeOrigin origin = ChangeOrigin.values()[in.get()];
        long created = in.getLong();
        Map<String, AttributeValue> keys = Objects.requireNonNull(item(in, bytes), "every record has its keys");
        Map<String, AttributeValue> newImage = item(in, bytes);
        Map<String, AttributeValue> oldImage = item(in, bytes);
        // Point-in-time recovery keeps the new image, and a Kinesis destination both, under any view
        // type; a stream shows what its view asks.
        return new ChangeRecord(
                sequence,
                event,
                created,
                viewType,
                origin,
                keys,
                viewType.keepsNew() ? newImage : null,
                viewType.keepsOld() ? oldImage : null);
    }

    /** The record with every image stored, as a NEW_AND_OLD_IMAGES record (a Kinesis destination's view). */
    @SuppressWarnings("EnumOrdinal") // see encode
    static ChangeRecord decodeAllImages(long sequence, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int version = in.get();
        if (version != FORMAT_VERSION) {
            throw new IllegalStateException("unknown change record format version " + version);
        }
        ChangeRecord.EventName event = ChangeRecord.EventName.values()[in.get()];
        in.get(); // the stream's view type: a Kinesis destination shows what was kept
        ChangeOrigin origin = ChangeOrigin.values()[in.get()];
        long created = in.getLong();
        Map<String, AttributeValue> keys = Objects.requireNonNull(item(in, bytes), "every record has its keys");
        Map<String, AttributeValue> newImage = item(in, bytes);
        Map<String, AttributeValue> oldImage = item(in, bytes);
        return new ChangeRecord(
                sequence, event, created, ChangeRecord.ViewType.NEW_AND_OLD_IMAGES, origin, keys, newImage, oldImage);
    }

    /** The record as point-in-time recovery replays it: keys, and the new image left encoded. */
    @SuppressWarnings("EnumOrdinal") // see encode
    static ChangeLog.ReplayRecord decodeForReplay(long sequence, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int version = in.get();
        if (version != FORMAT_VERSION) {
            throw new IllegalStateException("unknown change record format version " + version);
        }
        ChangeRecord.EventName event = ChangeRecord.EventName.values()[in.get()];
        in.get(); // view type
        in.get(); // origin
        long created = in.getLong();
        Map<String, AttributeValue> keys = Objects.requireNonNull(item(in, bytes), "every record has its keys");
        int n = in.getInt();
        byte[] newImage = n == ABSENT ? null : Arrays.copyOfRange(bytes, in.position(), in.position() + n);
        return new ChangeLog.ReplayRecord(sequence, event, created, keys, newImage);
    }

    /** The creation time alone, without decoding the images: what trimming needs. */
    static long createdMillis(byte[] bytes) {
        return ByteBuffer.wrap(bytes, 4, 8).getLong();
    }

    private static int length(byte @Nullable [] b) {
        return b == null ? 0 : b.length;
    }

    private static void part(ByteSink out, byte @Nullable [] b) {
        out.putIntBigEndian(b == null ? ABSENT : b.length);
        if (b != null) {
            out.put(b);
        }
    }

    /**
     * An image or the keys, left in their stored bytes: GetRecords writes them as JSON straight
     * from the bytes, and a record's size comes from their headers, so most records are never
     * decoded (a view that drops an image never looks inside it).
     */
    private static @Nullable Map<String, AttributeValue> item(ByteBuffer in, byte[] bytes) {
        int n = in.getInt();
        if (n == ABSENT) {
            return null;
        }
        int from = in.position();
        in.position(from + n);
        return EncodedItem.of(Arrays.copyOfRange(bytes, from, from + n));
    }
}
