package dev.kumiko.ignite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;

/**
 * Multi-row calls inside an explicit Ignite transaction, sent one colocation group at a time.
 *
 * <p>Why not one call: the 3.1.0 thin client splits a multi-row call by partition and sends the
 * parts at once. When one part fails (a lock conflict, the usual case under contention), the client
 * rolls the transaction back from its network thread while the caller's thread may still be
 * enlisting the other parts; that enlistment then throws "transaction already finished" while
 * holding the transaction's enlistment read lock, which it never releases. Every later
 * {@code rollback()} or {@code commit()} of the transaction waits for that lock's write side
 * forever: the request thread hangs, and with it whatever waits on that thread. A call whose rows
 * share one colocation group touches one partition, is sent as one part, and fails as a whole
 * before anything else is enlisted, so the race cannot happen. Rows of one group travel together,
 * so an item with its local index entries, or a change-log append, is still one call.
 *
 * <p>Outside a transaction (tx null) a call runs in an implicit transaction with no enlistment,
 * and goes out as one call.
 */
final class TxBatches {
    private TxBatches() {}

    /** The rows of keys, in their order (null where missing). */
    static List<Tuple> getAll(RecordView<Tuple> view, Transaction tx, List<Tuple> keys) {
        if (tx == null || keys.size() < 2) {
            return view.getAll(tx, keys);
        }
        List<List<Integer>> groups = groupPositions(keys);
        if (groups.size() == 1) {
            return view.getAll(tx, keys);
        }
        Tuple[] out = new Tuple[keys.size()];
        for (List<Integer> positions : groups) {
            List<Tuple> part = new ArrayList<>(positions.size());
            positions.forEach(i -> part.add(keys.get(i)));
            List<Tuple> found = view.getAll(tx, part);
            for (int j = 0; j < positions.size(); j++) {
                out[positions.get(j)] = found.get(j);
            }
        }
        return Arrays.asList(out);
    }

    static void upsertAll(RecordView<Tuple> view, Transaction tx, List<Tuple> rows) {
        forEachGroup(tx, rows, (t, part) -> {
            view.upsertAll(t, part);
            return List.of();
        });
    }

    /** Deletes keys; returns the keys that were not there. */
    static List<Tuple> deleteAll(RecordView<Tuple> view, Transaction tx, List<Tuple> keys) {
        return forEachGroup(tx, keys, view::deleteAll);
    }

    /** Runs call per group of rows, one after another; concatenates what each answers. */
    private static List<Tuple> forEachGroup(
            Transaction tx, List<Tuple> rows, BiFunction<Transaction, List<Tuple>, List<Tuple>> call) {
        if (tx == null || rows.size() < 2) {
            return call.apply(tx, rows);
        }
        List<List<Integer>> groups = groupPositions(rows);
        if (groups.size() == 1) {
            return call.apply(tx, rows);
        }
        List<Tuple> answered = new ArrayList<>();
        for (List<Integer> positions : groups) {
            List<Tuple> part = new ArrayList<>(positions.size());
            positions.forEach(i -> part.add(rows.get(i)));
            answered.addAll(call.apply(tx, part));
        }
        return answered;
    }

    /**
     * Runs call on the rows of each colocation group, one group after another, groups and the rows
     * in each in ascending key order, each call its own implicit transaction; concatenates what each
     * answers. For writes outside a transaction to keys other writers contend for (claims): a
     * multi-partition implicit write locks its keys in no global order, so two of them can each
     * hold a key the other waits for; single-partition calls in one global order cannot.
     */
    static List<Tuple> inKeyOrder(List<Tuple> rows, java.util.function.Function<List<Tuple>, List<Tuple>> call) {
        List<Tuple> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> dev.kumiko.storage.Bytes.ORDER.compare(a.bytesValue(Rows.K), b.bytesValue(Rows.K)));
        Map<BatchWrites.ByteKey, List<Tuple>> groups =
                new java.util.TreeMap<>((a, b) -> dev.kumiko.storage.Bytes.ORDER.compare(a.bytes(), b.bytes()));
        for (Tuple row : sorted) {
            groups.computeIfAbsent(new BatchWrites.ByteKey(row.bytesValue(Rows.G)), g -> new ArrayList<>(2))
                    .add(row);
        }
        List<Tuple> answered = new ArrayList<>();
        for (List<Tuple> part : groups.values()) {
            answered.addAll(call.apply(part));
        }
        return answered;
    }

    /** Positions of rows by colocation group (column G), groups in order of first appearance. */
    private static List<List<Integer>> groupPositions(List<Tuple> rows) {
        Map<BatchWrites.ByteKey, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            groups.computeIfAbsent(new BatchWrites.ByteKey(rows.get(i).bytesValue(Rows.G)), g -> new ArrayList<>(2))
                    .add(i);
        }
        return new ArrayList<>(groups.values());
    }
}
