package dev.kumiko.engine.txn;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The store form of a ClientRequestToken: under its token, the request's fingerprint, when it
 * expires and what the committed transaction reported ({@link Committed}); and under its expiry
 * time, an empty key, so expired tokens are found in order and removed.
 *
 * <pre>
 * 0x07 0x01 token(UTF-8)                -> fingerprint(32) expiresAtMillis(8) committed
 * 0x07 0x00 expiresAtMillis(8) token    -> (empty)
 * </pre>
 */
final class TokenRecords {
    static final byte BY_EXPIRY = 0x00;
    static final byte BY_TOKEN = 0x01;

    /** One stored token record. */
    record Stored(ByteBuffer fingerprint, long expiresAtMillis, Committed committed) {}

    private TokenRecords() {}

    static byte[] key(String token) {
        byte[] t = token.getBytes(StandardCharsets.UTF_8);
        return new ByteSink(2 + t.length)
                .put(KeySpace.TOKENS)
                .put(BY_TOKEN)
                .put(t)
                .toArray();
    }

    static byte[] expiryKey(long expiresAtMillis, String token) {
        byte[] t = token.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(10 + t.length)
                .put(KeySpace.TOKENS)
                .put(BY_EXPIRY)
                .putLong(expiresAtMillis)
                .put(t)
                .array();
    }

    static byte[] expiryStart() {
        return new byte[] {KeySpace.TOKENS, BY_EXPIRY};
    }

    /** The exclusive end of the expiry keys at or before nowMillis. */
    static byte[] expiryEnd(long nowMillis) {
        return ByteBuffer.allocate(10)
                .put(KeySpace.TOKENS)
                .put(BY_EXPIRY)
                .putLong(nowMillis + 1)
                .array();
    }

    static long expiryOf(byte[] expiryKey) {
        return ByteBuffer.wrap(expiryKey, 2, 8).getLong();
    }

    static String tokenOf(byte[] expiryKey) {
        return new String(expiryKey, 10, expiryKey.length - 10, StandardCharsets.UTF_8);
    }

    static byte[] encode(ByteBuffer fingerprint, long expiresAtMillis, Committed c) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            byte[] f = new byte[fingerprint.remaining()];
            fingerprint.duplicate().get(f);
            out.writeShort(f.length);
            out.write(f);
            out.writeLong(expiresAtMillis);
            out.writeInt(c.writeUnits().size());
            for (CapacityTally t : c.writeUnits().values()) {
                writeTally(
                        out, Objects.requireNonNull(t.report(ReturnConsumedCapacity.INDEXES), "INDEXES is reported"));
            }
            out.writeInt(c.itemCollectionMetrics().size());
            for (Map.Entry<String, List<ItemCollectionMetrics>> e :
                    c.itemCollectionMetrics().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().size());
                for (ItemCollectionMetrics m : e.getValue()) {
                    byte[] key = ItemCodec.encode(m.itemCollectionKey());
                    out.writeInt(key.length);
                    out.write(key);
                    out.writeDouble(m.lowerGb());
                    out.writeDouble(m.upperGb());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeTally(DataOutputStream out, ConsumedCapacity c) throws IOException {
        out.writeUTF(c.tableName());
        out.writeDouble(c.tableUnits());
        writeUnits(out, c.localIndexes());
        writeUnits(out, c.globalIndexes());
    }

    private static void writeUnits(DataOutputStream out, Map<String, Double> units) throws IOException {
        out.writeInt(units.size());
        for (Map.Entry<String, Double> e : units.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeDouble(e.getValue());
        }
    }

    static Stored decode(byte[] record) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
            byte[] f = new byte[in.readUnsignedShort()];
            in.readFully(f);
            long expiresAt = in.readLong();
            Map<String, CapacityTally> units = new LinkedHashMap<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                CapacityTally t = readTally(in);
                units.put(t.tableName(), t);
            }
            Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                String table = in.readUTF();
                int count = in.readInt();
                List<ItemCollectionMetrics> list = new ArrayList<>(count);
                for (int j = 0; j < count; j++) {
                    byte[] key = new byte[in.readInt()];
                    in.readFully(key);
                    list.add(new ItemCollectionMetrics(ItemCodec.decode(key), in.readDouble(), in.readDouble()));
                }
                metrics.put(table, list);
            }
            return new Stored(ByteBuffer.wrap(f).asReadOnlyBuffer(), expiresAt, new Committed(units, metrics));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CapacityTally readTally(DataInputStream in) throws IOException {
        CapacityTally t = new CapacityTally(in.readUTF(), false).addTable(in.readDouble());
        for (int n = in.readInt(), i = 0; i < n; i++) {
            t.addIndex(in.readUTF(), false, in.readDouble());
        }
        for (int n = in.readInt(), i = 0; i < n; i++) {
            t.addIndex(in.readUTF(), true, in.readDouble());
        }
        return t;
    }
}
