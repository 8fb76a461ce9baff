package dev.kumiko.ignite;

import java.util.ArrayList;
import java.util.List;
import org.apache.ignite.table.Tuple;
import org.jspecify.annotations.Nullable;

/** Tuples of the data table: a key's row is its colocation group G, the key K and the value V. */
final class Rows {
    static final String G = "G";
    static final String K = "K";
    static final String V = "V";

    private Rows() {}

    static Tuple key(byte[] key) {
        return Tuple.create(2).set(G, Colocation.groupOf(key)).set(K, key);
    }

    static Tuple row(byte[] key, byte[] value) {
        return Tuple.create(3).set(G, Colocation.groupOf(key)).set(K, key).set(V, value);
    }

    static List<Tuple> keys(byte[][] keys) {
        List<Tuple> out = new ArrayList<>(keys.length);
        for (byte[] key : keys) {
            out.add(key(key));
        }
        return out;
    }

    static byte @Nullable [] value(@Nullable Tuple row) {
        return row == null ? null : row.bytesValue(V);
    }

    static byte[][] values(List<Tuple> rows) {
        byte[][] out = new byte[rows.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(rows.get(i));
        }
        return out;
    }
}
