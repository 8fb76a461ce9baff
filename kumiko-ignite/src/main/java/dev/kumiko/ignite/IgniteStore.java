package dev.kumiko.ignite;

import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.base.DaemonThreads;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.TransactionOptions;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Store} on an Apache Ignite 3 cluster, through the Java thin client. Any number of
 * servers may open one over the same cluster: everything is in Ignite tables ({@link IgniteSchema}),
 * nothing in process memory but this process's list of open transactions.
 *
 * <p>Durability is the cluster's: a commit returns once a majority of each touched partition's
 * Raft group has it in its log (fsync on, as {@code kumiko ignite start} configures the nodes), so
 * {@link #sync} has nothing left to do.
 */
public final class IgniteStore implements Store {
    /** Attempts of a plain batch ({@link #apply}) that meets transactions on its keys. */
    static final int APPLY_ATTEMPTS_MAX = 64;
    /** Keys deleted per transaction by {@link #deleteRange}. */
    static final int DELETE_ROWS_MAX = 512;
    /**
     * The longest one call to the cluster may take before it fails as a retryable conflict. Ignite's
     * client waits without end by default, and after a node was killed a call has been seen to wait
     * 37 s and more, past any SDK's timeout. Well above a healthy call's latency (a range query's
     * first page, the slowest, takes about 250 ms on one local node).
     */
    static final long OPERATION_TIMEOUT_MILLIS = 5_000;

    private final IgniteClient client;
    private final RecordView<Tuple> data;
    private final RecordView<Tuple> locks;
    private final Claims claims;
    private final CounterFolds folds;
    private final OpenTransactions open = new OpenTransactions();
    private final ScheduledExecutorService drains =
            Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-ignite-folds"));
    private final LocalStripes stripes = new LocalStripes();
    private volatile boolean closed;

    private IgniteStore(IgniteClient client) {
        this.client = client;
        this.data = client.tables().table(IgniteSchema.DATA).recordView();
        this.locks = client.tables().table(IgniteSchema.LOCKS).recordView();
        this.claims = new Claims(client.tables().table(IgniteSchema.CLAIMS).recordView());
        this.folds = new CounterFolds(
                client, data, client.tables().table(IgniteSchema.DELTAS).recordView());
        BackgroundExecutor.repeat(drains, folds::drain, CounterFolds.FLUSH_INTERVAL_MILLIS, "Ignite counter folds");
    }

    /**
     * Connects to the cluster at endpoints (host:port of nodes' client connectors; one is enough,
     * more keep the server connected when one fails), creates Kumiko's tables if missing, and
     * folds the counter rows an earlier version left.
     */
    public static IgniteStore connect(List<String> endpoints) {
        // Creating tables and indexes may take longer than a data call may, and so may the first
        // SQL query of a cluster that has just started (planning, partitions' first leases on a
        // busy machine): a client of its own, without the operation timeout, does both, and plans
        // the range query before the engine's first scan needs it.
        try (IgniteClient schema = builder(endpoints).build()) {
            IgniteSchema.ensure(schema, schema.cluster().nodes().size());
            sweepLeftoverCounters(schema);
            RangeCursor.plan(schema.sql());
        }
        IgniteClient client =
                builder(endpoints).operationTimeout(OPERATION_TIMEOUT_MILLIS).build();
        try {
            return new IgniteStore(client);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /**
     * Folds counter rows an earlier version left, if it can within the sweep's bound: they only
     * make statistics (ItemCount, TableSizeBytes) lag, so a start does not wait on them; the next
     * start tries again.
     */
    private static void sweepLeftoverCounters(IgniteClient schema) {
        try {
            new CounterFolds(
                            schema,
                            schema.tables().table(IgniteSchema.DATA).recordView(),
                            schema.tables().table(IgniteSchema.DELTAS).recordView())
                    .sweep();
        } catch (RuntimeException e) {
            System.err.println("kumiko: leftover counter rows not folded at start (" + e.getMessage()
                    + "); the next start tries again");
        }
    }

    /**
     * The client's answers complete the caller's call on the client's network thread itself: by
     * default they hop to ForkJoinPool's common pool first, one more thread wake-up per call (its
     * threads took a tenth of a Kumiko server's CPU samples under a PutItem load). Nothing here
     * runs work in a call's continuation: every call is waited for by the thread that made it.
     */
    private static IgniteClient.Builder builder(List<String> endpoints) {
        return IgniteClient.builder()
                .addresses(endpoints.toArray(new String[0]))
                .asyncContinuationExecutor(Runnable::run)
                .loggerFactory(QuietLogger::forName);
    }

    @Override
    public byte @Nullable [] get(byte[] key) {
        checkOpen();
        foldBeforeCounterRead(key);
        return TransientReads.read(() -> Rows.value(data.get(null, Rows.key(key))));
    }

    @Override
    public byte[][] getAll(byte[][] keys) {
        checkOpen();
        if (keys.length == 0) {
            return new byte[0][];
        }
        for (byte[] key : keys) {
            foldBeforeCounterRead(key);
        }
        return TransientReads.read(() -> Rows.values(data.getAll(null, Rows.keys(keys))));
    }

    /**
     * Before a counter with additions of this process pending is read, folds them (CounterFolds),
     * so that a server reads its own writes' statistics; another server's show within a flush
     * interval.
     */
    private void foldBeforeCounterRead(byte[] key) {
        if (folds.pendingFor(key)) {
            folds.drain();
        }
    }

    @Override
    public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
        checkOpen();
        checkRange(startInclusive, endExclusive);
        if (startInclusive.length > 0 && (startInclusive[0] == KeySpace.ITEMS || startInclusive[0] == KeySpace.INDEX)) {
            return LatestRange.open(client, startInclusive, endExclusive, reverse);
        }
        // Other keys (the change log, the catalog, leases) are read by background work and streams,
        // which the safe-time wait does not hold up, and whose writers a read-write scan would.
        return TransientReads.read(
                () -> RangeCursor.open(client.sql(), null, null, startInclusive, endExclusive, reverse));
    }

    @Override
    public Transaction begin(byte[][] keys, TransactionMode mode) {
        checkOpen();
        return new IgniteTransaction(this, keys, mode);
    }

    @Override
    public void awaitTransactions() {
        open.await();
    }

    @Override
    public boolean local() {
        return false;
    }

    /** Commits batch in one Ignite transaction, retrying when it meets others' locks. */
    @Override
    public void apply(WriteBatch batch) {
        checkOpen();
        BatchWrites writes = BatchWrites.of(batch);
        if (writes.isEmpty()) {
            return;
        }
        folds.foldBeforeOverwrite(writes);
        // This process's writers of the same keys queue here rather than abort each other in Ignite.
        byte[][] keys = batch.ops().stream()
                .filter(op -> !op.isAdd())
                .map(WriteBatch.Op::key)
                .toArray(byte[][]::new);
        int[] held = stripes.tryLockAll(keys, LocalStripes.QUEUE_MILLIS);
        try {
            applyWithRetry(writes);
        } finally {
            stripes.unlockAll(held);
        }
        folds.addAndFoldOthers(writes.deltas());
    }

    private void applyWithRetry(BatchWrites writes) {
        try {
            if (writes.writeImplicitly(data)) {
                return;
            }
        } catch (RuntimeException e) {
            if (!Conflicts.isConflict(e)) {
                throw e;
            }
            // Met a transaction's locks: retried below with a pause between attempts.
        }
        for (int attempt = 1; ; attempt++) {
            org.apache.ignite.tx.Transaction tx = client.transactions()
                    .begin(new TransactionOptions().timeoutMillis(IgniteTransaction.TIMEOUT_MILLIS));
            try {
                writes.write(data, tx);
                tx.commit();
                break;
            } catch (RuntimeException e) {
                CounterFolds.rollbackQuietly(tx);
                if (!Conflicts.isConflict(e) || attempt == APPLY_ATTEMPTS_MAX) {
                    throw Conflicts.isConflict(e) ? new StoreConflictException(null, false) : e;
                }
                Conflicts.pause(attempt);
            }
        }
    }

    @Override
    public Snapshot snapshot() {
        checkOpen();
        return new IgniteSnapshot(this);
    }

    /**
     * Deletes the range, and the lock rows of its keys, in steps of {@value #DELETE_ROWS_MAX} keys
     * (a table's drop may be large).
     */
    @Override
    public void deleteRange(byte[] startInclusive, byte[] endExclusive) {
        checkOpen();
        checkRange(startInclusive, endExclusive);
        deleteRangeOf(data, IgniteSchema.DATA, IgniteSchema.DATA_BY_KEY, startInclusive, endExclusive);
        deleteRangeOf(locks, IgniteSchema.LOCKS, IgniteSchema.LOCKS_BY_KEY, startInclusive, endExclusive);
    }

    private void deleteRangeOf(
            RecordView<Tuple> view, String table, String byKey, byte[] startInclusive, byte[] endExclusive) {
        while (true) {
            List<Tuple> keys = new ArrayList<>(DELETE_ROWS_MAX);
            try (ResultSet<SqlRow> rows =
                    client.sql().execute(null, deleteStepQuery(table, byKey), startInclusive, endExclusive)) {
                rows.forEachRemaining(r ->
                        keys.add(Tuple.create(2).set(Rows.G, r.bytesValue(0)).set(Rows.K, r.bytesValue(1))));
            }
            if (keys.isEmpty()) {
                return;
            }
            view.deleteAll(null, keys);
        }
    }

    /** One step of a range's deletion: the keys of up to DELETE_ROWS_MAX rows in [?, ?). */
    static String deleteStepQuery(String table, String byKey) {
        return "SELECT " + IgniteSchema.forceIndex(byKey) + " G, K FROM " + table + " WHERE K >= ? AND K < ? LIMIT "
                + DELETE_ROWS_MAX;
    }

    /** Nothing to do: a commit has returned only once a majority of replicas logged it. */
    @Override
    public void sync() {
        checkOpen();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            drains.shutdownNow();
            folds.drain();
            client.close();
        }
    }

    static void checkRange(byte[] startInclusive, byte[] endExclusive) {
        if (endExclusive != null && Bytes.ORDER.compare(startInclusive, endExclusive) > 0) {
            throw new IllegalArgumentException("scan start is after its end");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the store is closed");
        }
    }

    IgniteClient client() {
        return client;
    }

    RecordView<Tuple> data() {
        return data;
    }

    Claims claims() {
        return claims;
    }

    CounterFolds folds() {
        return folds;
    }

    LocalStripes stripes() {
        return stripes;
    }

    OpenTransactions openTransactions() {
        return open;
    }
}
