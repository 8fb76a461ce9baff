package dev.kumiko.ignite;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;
import org.jspecify.annotations.Nullable;

/**
 * A {@link WriteBatch} written in one Ignite transaction. The batch's ops on one key collapse, in
 * order, into its final effect (a put, a delete, or a pure counter addition). A pure addition is
 * not written in the transaction at all: its sum is added to the counter after the commit
 * ({@link CounterFolds}), so that concurrent writers of a table do not meet on its counters.
 */
final class BatchWrites {
    private final List<Tuple> puts = new ArrayList<>();
    private final List<Tuple> deletes = new ArrayList<>();
    private final Map<ByteKey, Long> deltas = new LinkedHashMap<>();

    private BatchWrites() {}

    static BatchWrites of(WriteBatch batch) {
        Map<ByteKey, Effect> effects = new LinkedHashMap<>();
        for (WriteBatch.Op op : batch.ops()) {
            ByteKey key = new ByteKey(op.key());
            effects.put(key, Effect.after(effects.get(key), op));
        }
        BatchWrites out = new BatchWrites();
        effects.forEach((key, effect) -> out.add(key.bytes(), effect));
        return out;
    }

    private void add(byte[] key, Effect effect) {
        if (effect.isAdd) {
            if (effect.delta != 0) {
                deltas.put(new ByteKey(key), effect.delta);
            }
        } else if (effect.value == null) {
            deletes.add(Rows.key(key));
        } else {
            puts.add(Rows.row(key, effect.value));
        }
    }

    /** Writes the batch's puts and deletes in tx; the caller commits, then adds {@link #deltas}. */
    void write(RecordView<Tuple> data, Transaction tx) {
        if (!puts.isEmpty()) {
            TxBatches.upsertAll(data, tx, puts);
        }
        if (!deletes.isEmpty()) {
            TxBatches.deleteAll(data, tx, deletes);
        }
    }

    /**
     * Writes a batch of only puts or only deletes of one colocation group in one call, which Ignite
     * runs as one implicit transaction (atomic, and a round trip less than an explicit one); false
     * for other batches. Rows of several groups may lie in several partitions, which the client
     * would write in one implicit transaction each: not atomic together.
     */
    boolean writeImplicitly(RecordView<Tuple> data) {
        if (puts.isEmpty() && deletes.isEmpty()) {
            return true;
        }
        if ((!puts.isEmpty() && !deletes.isEmpty()) || !oneGroup(puts.isEmpty() ? deletes : puts)) {
            return false;
        }
        if (puts.isEmpty()) {
            data.deleteAll(null, deletes);
        } else {
            data.upsertAll(null, puts);
        }
        return true;
    }

    private static boolean oneGroup(List<Tuple> rows) {
        byte[] first = rows.get(0).bytesValue(Rows.G);
        return rows.stream().allMatch(r -> java.util.Arrays.equals(first, r.bytesValue(Rows.G)));
    }

    /**
     * Writes value (null: deletes the row) to key unless the batch puts or deletes key already: a
     * key a transaction locked with a placeholder gets its old value back (IgniteTransaction).
     */
    void keepUnlessWritten(byte[] key, byte @Nullable [] value) {
        if (written(puts, key) || written(deletes, key)) {
            return;
        }
        if (value == null) {
            deletes.add(Rows.key(key));
        } else {
            puts.add(Rows.row(key, value));
        }
    }

    private static boolean written(List<Tuple> rows, byte[] key) {
        for (Tuple row : rows) {
            if (java.util.Arrays.equals(row.bytesValue(Rows.K), key)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the batch puts or deletes one of keys. */
    boolean overwritesAny(java.util.Set<ByteKey> keys) {
        for (List<Tuple> rows : List.of(puts, deletes)) {
            for (Tuple row : rows) {
                if (keys.contains(new ByteKey(row.bytesValue(Rows.K)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The batch's counter additions, summed by counter key. */
    Map<ByteKey, Long> deltas() {
        return deltas;
    }

    boolean isEmpty() {
        return puts.isEmpty() && deletes.isEmpty() && deltas.isEmpty();
    }

    /** A key's effect so far: isAdd with a delta, or a value (null: deleted). */
    private record Effect(boolean isAdd, long delta, byte @Nullable [] value) {
        static Effect after(@Nullable Effect before, WriteBatch.Op op) {
            if (!op.isAdd()) {
                return new Effect(false, 0, op.value());
            }
            long delta = Counters.decode(op.value());
            if (before == null || before.isAdd) {
                return new Effect(true, (before == null ? 0 : before.delta) + delta, null);
            }
            // A put or delete earlier in the batch: the addition applies to that value here.
            return new Effect(false, 0, Counters.encode(Counters.decode(before.value) + delta));
        }
    }

    /** A byte[] with value equality, for collapsing a batch's ops by key. */
    record ByteKey(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ByteKey other && java.util.Arrays.equals(bytes, other.bytes);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bytes);
        }
    }
}
