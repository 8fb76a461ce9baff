package dev.kumiko.engine.exchange;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.error.DynamoException;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What exports and imports need from the engine: their job records in the store, a table's items
 * as of now, and the means to tell a job that runs from one whose engine died. The file formats,
 * the targets (S3, a directory) and the job threads live in the server, attached here
 * ({@link #attachment}) so that they close with the engine.
 */
public final class Exchange implements AutoCloseable {
    private final Store store;
    private final Catalog catalog;
    private final Clock clock;
    private final String owner;
    private final ExchangeJobs jobs;
    /**
     * Ids of the jobs this engine runs; over a local store, those of every engine over it (all are in
     * this process). Over a store shared by processes, a job's lease tells the other engines.
     */
    private final Set<String> running;

    private final boolean local;
    private final ConcurrentHashMap<Class<?>, Object> attachments = new ConcurrentHashMap<>();
    private boolean closed; // under attachments: nothing is attached after close, so nothing leaks

    /** The process-wide set of running jobs of one local store. */
    static final class Running {
        final Set<String> ids = ConcurrentHashMap.newKeySet();
    }

    public Exchange(Store store, Catalog catalog, Clock clock, String owner) {
        this.store = store;
        this.catalog = catalog;
        this.clock = clock;
        this.owner = owner;
        this.jobs = new ExchangeJobs(store);
        this.local = store.local();
        this.running = local ? store.shared(Running.class, Running::new).ids : ConcurrentHashMap.newKeySet();
    }

    public ExchangeJobs jobs() {
        return jobs;
    }

    public long nowMillis() {
        return clock.nowMillis();
    }

    /** The table's items from a consistent snapshot taken when they are read. */
    public SnapshotExportSource snapshot(String tableName) {
        Table t = catalog.get(tableName);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + tableName + " not found");
        }
        return new SnapshotExportSource(store, t.descriptor().id(), clock);
    }

    /**
     * Marks a job as run by this engine. Over a store shared by processes, the job's lease says so
     * instead; the runner renews it with {@link #renew} as it goes.
     */
    public void started(String jobId) {
        running.add(jobId);
        if (!local) {
            lease(jobId).hold();
        }
    }

    /** Renews the job's lease (a no-op over a local store); false when another engine took it. */
    public boolean renew(String jobId) {
        return local || lease(jobId).hold();
    }

    public void finished(String jobId) {
        running.remove(jobId);
        if (!local) {
            lease(jobId).release();
        }
    }

    /**
     * Whether an IN_PROGRESS job has no runner any more (its engine stopped or died). Over a local
     * store every runner is in this process; over a shared store, a job of another engine is
     * orphaned when taking its lease succeeds, which it does only once its runner stopped renewing
     * it. A job of this engine is looked up first because this engine's hold of the lease would
     * succeed as a renewal, taking its own running job for an orphan.
     */
    public boolean orphaned(String jobId) {
        return !running.contains(jobId) && (local || lease(jobId).hold());
    }

    /**
     * The one instance of type attached to this engine, created on first use; closed with it. After
     * close an IllegalStateException, and create is not called: what it made would never be closed.
     */
    public <T> T attachment(Class<T> type, Supplier<T> create) {
        Object found = attachments.get(type);
        if (found == null) {
            synchronized (attachments) {
                if (closed) {
                    throw new IllegalStateException("the engine is closed");
                }
                found = attachments.computeIfAbsent(type, t -> create.get());
            }
        }
        return type.cast(found);
    }

    private Lease lease(String jobId) {
        return new Lease(store, "exchange/" + jobId, owner, clock);
    }

    @Override
    public void close() {
        List<Object> all;
        synchronized (attachments) {
            closed = true;
            all = new ArrayList<>(attachments.values());
            attachments.clear();
        }
        for (Object o : all) {
            if (o instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    // Closing must go on for the rest; a job left IN_PROGRESS is recovered at the next start.
                }
            }
        }
    }
}
