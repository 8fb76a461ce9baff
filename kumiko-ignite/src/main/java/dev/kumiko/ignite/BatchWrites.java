package dev.kumiko.ignite;

import dev.kumiko.storage.Counters;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;
import org.jspecify.annotations.Nullable;

/**
 * A {@link WriteBatch} written in one Ignite transaction. The batch's ops on one key collapse, in
 * order, into its final effect (a put, a delete, or a pure counter addition). A pure addition is
 * not a read-modify-write of the counter, which would lock it and make concurrent writers of a
 * table conflict on its item count: it is inserted as a delta row under a fresh random id, which
 * conflicts with nothing, and folded into the counter after the commit ({@link CounterFolds}).
 */
final class BatchWrites {
    private static final int DELTA_ID_BYTES = 16;

    private final List<Tuple> puts = new ArrayList<>();
    private final List<Tuple> deletes = new ArrayList<>();
    private final List<Tuple> deltas = new ArrayList<>();

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
                deltas.add(CounterFolds.deltaRow(key, newDeltaId(), effect.delta));
            }
        } else if (effect.value == null) {
            deletes.add(Rows.key(key));
        } else {
            puts.add(Rows.row(key, effect.value));
        }
    }

    /** Writes the batch in tx; the caller commits, then folds {@link #deltas}. */
    void write(RecordView<Tuple> data, RecordView<Tuple> deltaTable, Transaction tx) {
        if (!puts.isEmpty()) {
            TxBatches.upsertAll(data, tx, puts);
        }
        if (!deletes.isEmpty()) {
            TxBatches.deleteAll(data, tx, deletes);
        }
        if (!deltas.isEmpty()) {
            TxBatches.insertAll(deltaTable, tx, deltas);
        }
    }

    /**
     * Writes a batch of only puts or only deletes of one colocation group in one call, which Ignite
     * runs as one implicit transaction (atomic, and a round trip less than an explicit one); false
     * for other batches. Rows of several groups may lie in several partitions, which the client
     * would write in one implicit transaction each: not atomic together.
     */
    boolean writeImplicitly(RecordView<Tuple> data) {
        if (!deltas.isEmpty()
                || (!puts.isEmpty() && !deletes.isEmpty())
                || !oneGroup(puts.isEmpty() ? deletes : puts)) {
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

    List<Tuple> deltas() {
        return deltas;
    }

    /** Keys (data-table key tuples) the batch deletes. */
    List<Tuple> deletes() {
        return deletes;
    }

    boolean isEmpty() {
        return puts.isEmpty() && deletes.isEmpty() && deltas.isEmpty();
    }

    private static byte[] newDeltaId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return ByteBuffer.allocate(DELTA_ID_BYTES)
                .putLong(random.nextLong())
                .putLong(random.nextLong())
                .array();
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
