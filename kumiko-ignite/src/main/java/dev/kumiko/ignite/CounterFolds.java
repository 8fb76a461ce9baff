package dev.kumiko.ignite;

import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Counters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.sql.Statement;
import org.apache.ignite.sql.async.AsyncResultSet;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;

/**
 * Counter additions kept in this process and folded into their counters in the background. Most
 * of the engine's counters are statistics (a table's and its indexes' item counts and sizes, an LSI
 * item collection's size), which DynamoDB itself refreshes about every six hours: they need not
 * commit with the write they count. Keeping them out of the write's transaction takes a call and
 * a partition (the counters' own) off every write's commit, and a table's writes no longer meet on
 * its counter rows at all. Any other counter (the catalog's version, which tells other servers to
 * reload their catalog) is folded before its writer answers ({@link #addAndFoldOthers}), so a
 * table created through one server is usable through another at once.
 *
 * <p>Writers {@link #add} their sums after their commit; {@link #flush} folds everything pending in
 * one transaction (read the counters, write them back, commit), run every
 * {@value #FLUSH_INTERVAL_MILLIS} ms by the store and before this process reads a counter, so a
 * server reads its own writes' statistics. What the cost is: the additions of a server killed with
 * -9 before they are folded are lost, and the counters stay off by them (docs/distributed.md,
 * "Counters"). A fold that fails (a partition failing over) keeps its sums pending for the next.
 *
 * <p>Rows of {@value IgniteSchema#DELTAS}, where earlier versions queued each write's additions
 * inside its transaction, are folded once at connect ({@link #sweep}).
 */
final class CounterFolds {
    static final String ID = "ID";
    static final String D = "D";
    /** How often pending additions are folded: the longest a counter lags another server's writes. */
    static final long FLUSH_INTERVAL_MILLIS = 100;
    /** Fold attempts before the sums wait for the next flush. */
    static final int ATTEMPTS_MAX = 64;
    /** How long one fold retries before its sums wait for the next flush. */
    static final long FOLD_DEADLINE_MILLIS = 5_000;
    /** Legacy delta rows read per sweep step, and steps per sweep. */
    static final int SWEEP_ROWS_MAX = 512;
    /** Bounds the sweep's scan of leftover rows (see {@link #sweep}). */
    static final long SWEEP_QUERY_TIMEOUT_MILLIS = 15_000;

    static final int SWEEP_STEPS_MAX = 64;
    /**
     * Counters with additions pending at most; a writer that finds more folds them itself before
     * it answers, so that a cluster that does not take folds cannot fill the heap. One key per
     * counter: a table's and each index's two, and one per LSI item collection written lately.
     */
    static final int PENDING_KEYS_MAX = 64 * 1024;

    private final IgniteClient client;
    private final RecordView<Tuple> data;
    private final RecordView<Tuple> deltas;
    /** Sums not yet folded, by counter key. */
    private final ConcurrentHashMap<BatchWrites.ByteKey, Long> pending = new ConcurrentHashMap<>();

    private final ReentrantLock foldLock = new ReentrantLock();
    /** The counters of the fold in progress (taken from pending, not committed yet); else empty. */
    private volatile Set<BatchWrites.ByteKey> folding = Set.of();

    CounterFolds(IgniteClient client, RecordView<Tuple> data, RecordView<Tuple> deltas) {
        this.client = client;
        this.data = data;
        this.deltas = deltas;
    }

    /** Adds a committed write's counter sums to what is pending. */
    void add(Map<BatchWrites.ByteKey, Long> sums) {
        if (sums.isEmpty()) {
            return;
        }
        sums.forEach((k, v) -> pending.merge(k, v, Long::sum));
        if (pending.size() > PENDING_KEYS_MAX) {
            flush();
        }
    }

    /**
     * {@link #add}, then, when sums hold a counter that is not a statistic (a key outside the
     * statistics' key space: the catalog's version), folds before returning.
     */
    void addAndFoldOthers(Map<BatchWrites.ByteKey, Long> sums) {
        add(sums);
        for (BatchWrites.ByteKey k : sums.keySet()) {
            byte[] key = k.bytes();
            if (key.length == 0 || key[0] != KeySpace.STATS) {
                drain();
                return;
            }
        }
    }

    /**
     * Whether this process may have additions to key that a read of it would not see yet: pending
     * ones, or a fold in progress (which has taken them out of the pending sums but not committed).
     */
    boolean pendingFor(byte[] key) {
        Set<BatchWrites.ByteKey> inFold = folding;
        if (pending.isEmpty() && inFold.isEmpty()) {
            return false;
        }
        BatchWrites.ByteKey k = new BatchWrites.ByteKey(key);
        return pending.containsKey(k) || inFold.contains(k);
    }

    /**
     * Folds what is pending first when batch overwrites (puts or deletes) a counter with additions
     * pending, so that additions made before the batch do not land on top of its value.
     */
    void foldBeforeOverwrite(BatchWrites batch) {
        if (!pending.isEmpty() && batch.overwritesAny(pending.keySet())) {
            drain();
        }
    }

    /**
     * Folds every pending sum into its counter; returns whether they are folded (false: still
     * pending, for the next flush). One fold at a time: a caller waits for the one in progress, then
     * folds what came meanwhile.
     */
    boolean flush() {
        foldLock.lock();
        try {
            // Named as folding before they leave pending, so a reader always sees them in one of the two.
            Set<BatchWrites.ByteKey> keys = Set.copyOf(pending.keySet());
            folding = keys;
            Map<BatchWrites.ByteKey, Long> taken = new LinkedHashMap<>();
            for (BatchWrites.ByteKey k : keys) {
                Long sum = pending.remove(k);
                if (sum != null && sum != 0) {
                    taken.put(k, sum);
                }
            }
            if (taken.isEmpty()) {
                folding = Set.of();
                return true;
            }
            boolean folded = false;
            try {
                folded = foldWithRetry(taken);
            } finally {
                if (!folded) {
                    taken.forEach((k, v) -> pending.merge(k, v, Long::sum));
                }
                folding = Set.of();
            }
            return folded;
        } finally {
            foldLock.unlock();
        }
    }

    /** The store's schedule: {@link #flush}, never throwing (a failure is tried again next time). */
    void drain() {
        try {
            flush();
        } catch (RuntimeException e) {
            // a cluster call failed outside a transaction (a node going away): the sums stay pending
        }
    }

    private boolean foldWithRetry(Map<BatchWrites.ByteKey, Long> sums) {
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FOLD_DEADLINE_MILLIS);
        for (int attempt = 1; attempt <= ATTEMPTS_MAX && System.nanoTime() - deadlineNanos < 0; attempt++) {
            Transaction tx = null;
            try {
                tx = client.transactions()
                        .begin(new TransactionOptions().timeoutMillis(IgniteTransaction.TIMEOUT_MILLIS));
                addIn(tx, sums);
                tx.commit();
                return true;
            } catch (RuntimeException e) {
                if (tx != null) {
                    rollbackQuietly(tx);
                }
                if (!Conflicts.isConflict(e)) {
                    throw e;
                }
                Conflicts.pause(attempt);
            }
        }
        return false;
    }

    /** Reads the counters of sums in tx and writes each back with its sum added. */
    private void addIn(Transaction tx, Map<BatchWrites.ByteKey, Long> sums) {
        List<Tuple> counterKeys = new ArrayList<>(sums.size());
        sums.keySet().forEach(k -> counterKeys.add(Rows.key(k.bytes())));
        List<Tuple> current = TxBatches.getAll(data, tx, counterKeys);
        List<Tuple> updated = new ArrayList<>(sums.size());
        int i = 0;
        for (Map.Entry<BatchWrites.ByteKey, Long> sum : sums.entrySet()) {
            long value = Counters.decode(Rows.value(current.get(i++))) + sum.getValue();
            updated.add(Rows.row(sum.getKey().bytes(), Counters.encode(value)));
        }
        TxBatches.upsertAll(data, tx, updated);
    }

    /**
     * Folds the rows earlier versions left in {@value IgniteSchema#DELTAS} (a writer that stopped
     * between its commit and its fold): each step deletes rows and adds what it deleted in one
     * transaction, so each row is counted once whichever server sweeps it.
     */
    void sweep() {
        for (int step = 0; step < SWEEP_STEPS_MAX; step++) {
            List<Tuple> rows = leftoverRows();
            if (rows.isEmpty() || !sweepStep(rows)) {
                return;
            }
        }
    }

    /**
     * Up to {@value #SWEEP_ROWS_MAX} rows of {@value IgniteSchema#DELTAS}, waited for at most
     * {@value #SWEEP_QUERY_TIMEOUT_MILLIS} ms: the scan reads outside a transaction, and one that
     * meets the write intent of a transaction whose coordinator died waits for its resolution,
     * which Ignite 3.1 was seen not to finish. A server restarted after kill -9 then hung here at
     * start for good (scripts/faults.sh), with the statement's own query timeout set: the client's
     * wait is bounded here instead, and a sweep that times out throws.
     */
    private List<Tuple> leftoverRows() {
        Statement select = client.sql()
                .statementBuilder()
                .query("SELECT G, ID, K, D FROM " + IgniteSchema.DELTAS + " LIMIT " + SWEEP_ROWS_MAX)
                .queryTimeout(SWEEP_QUERY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .build();
        AsyncResultSet<SqlRow> page;
        try {
            page = client.sql().executeAsync(null, select).get(SWEEP_QUERY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "no answer to the scan of " + IgniteSchema.DELTAS + " within " + SWEEP_QUERY_TIMEOUT_MILLIS + " ms",
                    e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the scan of " + IgniteSchema.DELTAS + " failed: " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        List<Tuple> rows = new ArrayList<>();
        // LIMIT is below the default page size (1024 rows): the first page holds every row.
        for (SqlRow r : page.currentPage()) {
            rows.add(Tuple.create(4)
                    .set(Rows.G, r.bytesValue(0))
                    .set(ID, r.bytesValue(1))
                    .set(Rows.K, r.bytesValue(2))
                    .set(D, r.longValue(3)));
        }
        // Every row is read: closing only releases the cursor, and a failure to do so changes nothing.
        page.closeAsync().exceptionally(e -> null);
        return rows;
    }

    private boolean sweepStep(List<Tuple> rows) {
        for (int attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
            Transaction tx = client.transactions()
                    .begin(new TransactionOptions().timeoutMillis(IgniteTransaction.TIMEOUT_MILLIS));
            try {
                List<Tuple> keys = new ArrayList<>(rows.size());
                rows.forEach(r -> keys.add(
                        Tuple.create(2).set(Rows.G, r.bytesValue(Rows.G)).set(ID, r.bytesValue(ID))));
                // deleteAll answers the keys it did not find: another server swept those already.
                List<Tuple> absent = TxBatches.deleteAll(deltas, tx, keys);
                Map<BatchWrites.ByteKey, Long> sums = new LinkedHashMap<>();
                for (Tuple row : rows) {
                    if (!contains(absent, row.bytesValue(ID))) {
                        sums.merge(new BatchWrites.ByteKey(row.bytesValue(Rows.K)), row.longValue(D), Long::sum);
                    }
                }
                if (!sums.isEmpty()) {
                    addIn(tx, sums);
                }
                tx.commit();
                return true;
            } catch (RuntimeException e) {
                rollbackQuietly(tx);
                if (!Conflicts.isConflict(e)) {
                    throw e;
                }
                Conflicts.pause(attempt);
            }
        }
        return false;
    }

    private static boolean contains(List<Tuple> absent, byte[] id) {
        for (Tuple t : absent) {
            if (t != null && java.util.Arrays.equals(t.bytesValue(ID), id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rolls tx back, waiting at most {@link IgniteStore#OPERATION_TIMEOUT_MILLIS}. The 3.1.0 client
     * starts an explicit transaction with its first call, and when that call fails before the start
     * completes (a SQL query the node refused, seen under the HTTP fuzzing suite), the transaction's
     * start never completes and {@code rollback()} waits for it forever. Past the bound the thread
     * goes on: a transaction that did start is aborted by Ignite after its own timeout.
     */
    static void rollbackQuietly(Transaction tx) {
        try {
            tx.rollbackAsync().get(IgniteStore.OPERATION_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException ignored) {
            // Already aborted by Ignite (the usual case after a conflict), or see above.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
