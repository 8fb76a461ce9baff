package dev.kumiko.ignite;

import dev.kumiko.storage.Counters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;
import org.jspecify.annotations.Nullable;

/**
 * Folds counter deltas into their counters. A fold deletes delta rows and adds what it deleted in
 * one transaction, so each delta is counted exactly once whoever folds it: the writer right after
 * its commit, or a sweep at connect for deltas whose writer died between the two. Until its fold,
 * a delta is invisible to readers of the counter (counters are read-committed and lag one
 * transaction behind the write that made them).
 *
 * <p>Every write of a table adds to the same two counters (its item count and size), so folds are
 * grouped, as a log's group commit: a writer queues its deltas, and whichever writer holds the
 * fold lock folds everything queued in one transaction, for itself and for those waiting behind
 * it. One fold per lock turn instead of one per write keeps the counters' rows from serializing
 * a table's writes on one replicated commit each.
 *
 * <p>A fold that cannot finish within {@link #FOLD_DEADLINE_MILLIS} (a partition failing over)
 * puts its rows back in the queue, and a writer that waited {@link #LOCK_WAIT_MILLIS} for the
 * lock leaves its rows there, as does every writer while the last fold failed: {@link #drain},
 * run every second by the store, folds what is left.
 */
final class CounterFolds {
    static final String ID = "ID";
    static final String D = "D";
    /** Fold attempts before leaving the deltas to the next sweep. */
    static final int ATTEMPTS_MAX = 64;
    /** Deltas read per sweep step, and steps per sweep (writers may add deltas while it runs). */
    static final int SWEEP_ROWS_MAX = 512;

    static final int SWEEP_STEPS_MAX = 64;
    /** Delta rows one grouped fold takes from the queue (a writer's own rows are never split). */
    static final int GROUP_ROWS_MAX = 1024;
    /**
     * How long a writer waits for the fold lock. Its write has committed; the wait only keeps the
     * counters current. A fold holds the lock for milliseconds, but while a partition fails over
     * it can hold it for seconds (calls that time out, then retries), and a writer waiting behind
     * it holds its client's answer just as long. A writer that waits longer leaves its deltas
     * queued, where the next fold of this process or {@link #drain} takes them, and answers its
     * client.
     */
    static final long LOCK_WAIT_MILLIS = 1_000;
    /** How long one grouped fold retries before its rows go back in the queue. */
    static final long FOLD_DEADLINE_MILLIS = 5_000;
    /**
     * Rows kept queued at most; past it, rows of a failed fold stay only in the deltas table, for
     * the sweep at the next connect (a cluster that stays unreachable must not fill the heap).
     */
    static final int QUEUED_ROWS_MAX = 64 * GROUP_ROWS_MAX;

    private final IgniteClient client;
    private final RecordView<Tuple> data;
    private final RecordView<Tuple> deltas;
    private final ConcurrentLinkedQueue<Queued> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queuedRows = new AtomicInteger();
    private final ReentrantLock foldLock = new ReentrantLock();
    /**
     * Whether the last fold failed (a partition failing over): writers then leave their deltas
     * queued for {@link #drain} and answer at once, rather than each wait its turn behind folds
     * that are failing. The next fold that commits clears it.
     */
    private volatile boolean failing;

    /** One writer's delta rows, and once a fold has taken them, whether it committed. */
    private static final class Queued {
        final List<Tuple> rows;
        /** Written by the fold that took the rows, under foldLock; read by the writer under it. */
        @Nullable
        Boolean folded;

        Queued(List<Tuple> rows) {
            this.rows = rows;
        }
    }

    CounterFolds(IgniteClient client, RecordView<Tuple> data, RecordView<Tuple> deltas) {
        this.client = client;
        this.data = data;
        this.deltas = deltas;
    }

    static Tuple deltaRow(byte[] counterKey, byte[] id, long delta) {
        return Tuple.create(4)
                .set(Rows.G, Colocation.groupOf(counterKey))
                .set(ID, id)
                .set(Rows.K, counterKey)
                .set(D, delta);
    }

    /**
     * Folds rows (full delta rows), grouped with other writers' queued rows; returns whether they
     * are folded (false: left queued for a later fold or {@link #drain}).
     */
    boolean fold(List<Tuple> rows) {
        if (rows.isEmpty()) {
            return true;
        }
        Queued mine = new Queued(rows);
        enqueue(mine);
        if (failing) {
            return false;
        }
        try {
            if (!foldLock.tryLock(LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            // A fold that held the lock before us may have taken our rows already; if not, each
            // turn takes the oldest queued rows, so ours are taken within a bounded number of turns.
            while (mine.folded == null) {
                if (!foldQueued()) {
                    // A fold that failed once is failing over: ours stay queued for a later turn.
                    break;
                }
            }
            return Boolean.TRUE.equals(mine.folded);
        } finally {
            foldLock.unlock();
        }
    }

    private void enqueue(Queued q) {
        queuedRows.addAndGet(q.rows.size());
        queue.add(q);
    }

    /**
     * Takes queued rows up to {@value #GROUP_ROWS_MAX} (at least one writer's) and folds them;
     * returns whether they are folded (if not, they are queued again, within the bound).
     */
    private boolean foldQueued() {
        assert foldLock.isHeldByCurrentThread();
        List<Queued> taken = new ArrayList<>();
        List<Tuple> rows = new ArrayList<>();
        for (Queued next = queue.peek();
                next != null && (rows.isEmpty() || rows.size() + next.rows.size() <= GROUP_ROWS_MAX);
                next = queue.peek()) {
            queue.poll();
            queuedRows.addAndGet(-next.rows.size());
            taken.add(next);
            rows.addAll(next.rows);
        }
        boolean folded = false;
        try {
            folded = foldWithRetry(rows);
        } finally {
            failing = !folded;
            // On an error the rows stay in the deltas table and go back in the queue; their
            // writers are told they are not folded yet.
            for (Queued q : taken) {
                q.folded = folded;
                if (!folded && queuedRows.get() < QUEUED_ROWS_MAX) {
                    enqueue(new Queued(q.rows));
                }
            }
        }
        return folded;
    }

    /**
     * Folds rows left queued (by a writer whose wait ran out, or a fold that failed), as long as
     * folds succeed; returns at once if another thread holds the fold lock. Never throws: it runs
     * on a schedule, and a failure is simply tried again on the next run.
     */
    void drain() {
        if (queue.isEmpty() || !foldLock.tryLock()) {
            return;
        }
        try {
            int turns = queuedRows.get() / GROUP_ROWS_MAX + 1;
            for (int turn = 0; turn < turns && !queue.isEmpty(); turn++) {
                if (!foldQueued()) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            // a cluster call failed outside a transaction (a node going away): next run
        } finally {
            foldLock.unlock();
        }
    }

    private boolean foldWithRetry(List<Tuple> rows) {
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FOLD_DEADLINE_MILLIS);
        for (int attempt = 1; attempt <= ATTEMPTS_MAX && System.nanoTime() - deadlineNanos < 0; attempt++) {
            Transaction tx = null;
            try {
                tx = client.transactions()
                        .begin(new TransactionOptions().timeoutMillis(IgniteTransaction.TIMEOUT_MILLIS));
                foldIn(tx, rows);
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

    private void foldIn(Transaction tx, List<Tuple> rows) {
        List<Tuple> keys = new ArrayList<>(rows.size());
        for (Tuple row : rows) {
            keys.add(Tuple.create(2).set(Rows.G, row.bytesValue(Rows.G)).set(ID, row.bytesValue(ID)));
        }
        // deleteAll answers the keys it did not find: someone else folded those already.
        List<Tuple> absent = TxBatches.deleteAll(deltas, tx, keys);
        Map<BatchWrites.ByteKey, Long> sums = new LinkedHashMap<>();
        for (Tuple row : rows) {
            if (!contains(absent, row.bytesValue(ID))) {
                sums.merge(new BatchWrites.ByteKey(row.bytesValue(Rows.K)), row.longValue(D), Long::sum);
            }
        }
        if (sums.isEmpty()) {
            return;
        }
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

    private static boolean contains(List<Tuple> absent, byte[] id) {
        for (Tuple t : absent) {
            if (t != null && java.util.Arrays.equals(t.bytesValue(ID), id)) {
                return true;
            }
        }
        return false;
    }

    /** Folds every delta left by writers that stopped between their commit and their fold. */
    void sweep() {
        for (int step = 0; step < SWEEP_STEPS_MAX; step++) {
            List<Tuple> rows = new ArrayList<>();
            try (ResultSet<SqlRow> rs = client.sql()
                    .execute(null, "SELECT G, ID, K, D FROM " + IgniteSchema.DELTAS + " LIMIT " + SWEEP_ROWS_MAX)) {
                rs.forEachRemaining(r -> rows.add(deltaRow(r.bytesValue(Rows.K), r.bytesValue(ID), r.longValue(D))));
            }
            if (rows.isEmpty() || !fold(rows)) {
                return;
            }
        }
    }

    static void rollbackQuietly(Transaction tx) {
        try {
            tx.rollback();
        } catch (RuntimeException ignored) {
            // Already aborted by Ignite (the usual case after a conflict): nothing to undo.
        }
    }
}
