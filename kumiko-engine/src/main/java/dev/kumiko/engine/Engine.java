package dev.kumiko.engine;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.admin.AdminHooks;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.backup.BackupSystem;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.capacity.UsageObserver;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeLogTrimmer;
import dev.kumiko.engine.control.ControlPlane;
import dev.kumiko.engine.exchange.Exchange;
import dev.kumiko.engine.index.IndexBackfill;
import dev.kumiko.engine.insights.ContributorCounts;
import dev.kumiko.engine.insights.ContributorInsightsOperations;
import dev.kumiko.engine.item.ItemOperations;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.engine.read.ReadOperations;
import dev.kumiko.engine.streams.StreamBacklog;
import dev.kumiko.engine.streams.StreamLifecycle;
import dev.kumiko.engine.streams.StreamOperations;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.engine.ttl.TimeToLiveClock;
import dev.kumiko.engine.ttl.TimeToLiveOperations;
import dev.kumiko.engine.ttl.TimeToLiveSweeper;
import dev.kumiko.engine.txn.TransactionOperations;
import dev.kumiko.engine.vector.VectorIndexes;
import dev.kumiko.engine.vector.VectorOperations;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.partiql.PqOperations;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * The DynamoDB engine over one store: typed requests in, typed results out, no HTTP or JSON. The
 * server and in-process callers (tests that embed Kumiko) use the same instance type.
 */
public final class Engine implements AutoCloseable {
    private final Store store;
    private final Catalog catalog;
    private final ThroughputLimiter throughput;
    private final ControlPlane controlPlane;
    private final ItemOperations items;
    private final ReadOperations reads;
    private final IndexBackfill backfill;
    private final ChangeLog changeLog;
    private final ChangeLogTrimmer trimmer;
    private final StreamOperations streams;
    private final AdminHooks admin;
    private final TimeToLiveOperations timeToLive;
    private final ContributorInsightsOperations contributorInsights;
    private final TimeToLiveSweeper sweeper;
    private final CatalogWatch catalogWatch;
    private final StreamBacklog streamBacklog;
    private final dev.kumiko.engine.replication.GlobalTables globalTables;
    private final dev.kumiko.engine.kinesis.KinesisStreaming kinesis;
    // What transactions(), partiql() and exchange() build at their first call (under `lazily`), so
    // that an engine a test opens and never asks for them does not load their classes: 7-10 % of a
    // cold Engine.inMemory() (docs/performance-notes.md, target 4). Explicit checks rather than a
    // Supplier each, whose lambdas would be linked at open, which is what this avoids.
    private final Object lazily = new Object();
    private final Clock clock;
    private final ItemWriter writer;
    private final VectorIndexes vectors;
    private final VectorOperations vectorOperations;
    private final dev.kumiko.engine.control.ResourcePolicies resourcePolicies;
    private final String owner;
    private volatile @Nullable TransactionOperations transactions;
    private volatile @Nullable PqOperations partiql;
    private volatile @Nullable Exchange exchange;
    // Built at open only over a store that holds backups, recovery bases, restore jobs or a table
    // with point-in-time recovery on, where it has jobs to settle and bases to take; otherwise at
    // its first use: an engine a test opens and never backs up loads none of its 11 classes and
    // starts none of its threads (about a tenth of a cold Engine.inMemory(), docs/performance-notes.md,
    // target 4).
    private volatile @Nullable BackupSystem backups;
    private boolean closed; // under lazily: no backup system is built after close
    // Under lazily: set as close begins, so that no Exchange (whose attachments are job threads) is
    // built after close took the one to close, not even by a request racing the close.
    private boolean exchangeClosed;
    private final EngineSettings settings;

    private Engine(Store store, Clock clock, EngineSettings settings) {
        this.store = store;
        this.clock = clock;
        this.settings = settings;
        this.catalog = new Catalog(store);
        this.changeLog = new ChangeLog(store, clock, SEQUENCE_FLOORS);
        // Unique among engines over the store: 64 random bits and this engine's start. Neither
        // SecureRandom, whose seeding would slow an embedded start, nor the process id, whose first
        // ProcessHandle.current() costs about 8 ms of a cold start.
        this.owner = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-" + System.nanoTime() + "-"
                + System.identityHashCode(this);
        this.trimmer =
                new ChangeLogTrimmer(catalog, changeLog, clock, new Lease(store, "changelog-trim", owner, clock));
        this.vectors = VectorIndexes.of(store, new TableExists());
        this.writer = new ItemWriter(settings, changeLog, new Dropped(), vectors);
        ContributorCounts contributorCounts = new ContributorCounts();
        this.throughput = new ThroughputLimiter(clock, settings.throttling(), contributorCounts);
        this.contributorInsights = new ContributorInsightsOperations(catalog, contributorCounts, clock);
        this.backfill = new IndexBackfill(catalog, store, owner, clock);
        StreamLifecycle streamLifecycle = new StreamLifecycle(catalog, changeLog, store);
        this.controlPlane = new ControlPlane(catalog, clock, backfill, throughput, streamLifecycle);
        this.vectorOperations = new VectorOperations(catalog, store, vectors, controlPlane);
        this.resourcePolicies = new dev.kumiko.engine.control.ResourcePolicies(catalog, store, clock);
        this.streams = new StreamOperations(catalog, changeLog, streamLifecycle, clock);
        this.streamBacklog = new StreamBacklog(catalog, changeLog);
        this.items = new ItemOperations(catalog, store, writer, throughput);
        this.reads = new ReadOperations(catalog, store, throughput);
        TimeToLiveClock ttlClock = new TimeToLiveClock(clock);
        this.timeToLive = new TimeToLiveOperations(catalog);
        this.sweeper = new TimeToLiveSweeper(
                catalog,
                store,
                writer,
                ttlClock,
                settings.ttlSweepIntervalMillis(),
                new Lease(store, "ttl-sweep", owner, clock));
        this.admin = new AdminHooks(catalog, trimmer, sweeper, ttlClock);
        this.catalogWatch = new CatalogWatch(catalog, backfill);
        this.globalTables = new dev.kumiko.engine.replication.GlobalTables(
                store, catalog, changeLog, writer, controlPlane, clock, owner);
        this.kinesis = new dev.kumiko.engine.kinesis.KinesisStreaming(store, catalog, changeLog, clock, owner);
        writer.systemAttributes(globalTables); // legacy global tables' aws:rep:* attributes
        trimmer.keepFrom(new KeepFrom());
        if (backupsAtOpen()) {
            backups();
        }
        backfill.resumeAll();
        catalogWatch.start();
        trimmer.start();
        sweeper.start();
    }

    public static Engine open(Store store) {
        return new Engine(store, Clock.SYSTEM, EngineSettings.DEFAULTS);
    }

    public static Engine open(Store store, Clock clock) {
        return new Engine(store, clock, EngineSettings.DEFAULTS);
    }

    public static Engine open(Store store, Clock clock, EngineSettings settings) {
        return new Engine(store, clock, settings);
    }

    /** An engine on a fresh in-memory store, for tests that embed Kumiko. */
    public static Engine inMemory() {
        return open(new MemoryStore());
    }

    /**
     * Tells {@code o} what every request consumes and how far stream readers got (metrics, hot
     * keys); UsageObserver.NONE stops it.
     */
    public void observe(UsageObserver o) {
        throughput.observe(o);
        streams.observe(o);
    }

    /** Whether the store answers from this process (its calls may run on an event loop). */
    public boolean storeIsLocal() {
        return store.local();
    }

    /** Vector indexes and SearchVectors (docs/vector-search.md). */
    public VectorOperations vectors() {
        return vectorOperations;
    }

    public ControlPlane control() {
        return controlPlane;
    }

    /** Resource-based policies of tables and streams. */
    public dev.kumiko.engine.control.ResourcePolicies resourcePolicies() {
        return resourcePolicies;
    }

    public ItemOperations items() {
        return items;
    }

    public ReadOperations reads() {
        return reads;
    }

    public TransactionOperations transactions() {
        TransactionOperations t = transactions;
        if (t == null) {
            synchronized (lazily) {
                t = transactions;
                if (t == null) {
                    t = new TransactionOperations(catalog, store, writer, clock, throughput);
                    transactions = t;
                }
            }
        }
        return t;
    }

    /** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction. */
    public PqOperations partiql() {
        PqOperations p = partiql;
        if (p == null) {
            synchronized (lazily) {
                p = partiql;
                if (p == null) {
                    p = new PqOperations(catalog, items, reads, transactions());
                    partiql = p;
                }
            }
        }
        return p;
    }

    /** For the engine's own tests (EngineInternals): the catalog mirror. */
    Catalog catalog() {
        return catalog;
    }

    /** The DynamoDB Streams operations. */
    public StreamOperations streams() {
        return streams;
    }

    /** How far stream consumers lag (metrics). */
    /** Kinesis streaming destinations (shipping once the server configured a Kinesis endpoint). */
    public dev.kumiko.engine.kinesis.KinesisStreaming kinesis() {
        return kinesis;
    }

    /** Global tables: replicas in peer regions (idle until configured with a region and peers). */
    public dev.kumiko.engine.replication.GlobalTables globalTables() {
        return globalTables;
    }

    public StreamBacklog streamBacklog() {
        return streamBacklog;
    }

    /** UpdateTimeToLive and DescribeTimeToLive. */
    public TimeToLiveOperations timeToLive() {
        return timeToLive;
    }

    /** UpdateContributorInsights, DescribeContributorInsights, ListContributorInsights and the counted keys. */
    public ContributorInsightsOperations contributorInsights() {
        return contributorInsights;
    }

    /** Hooks outside the DynamoDB API for tests: run background work now, move TTL's clock. */
    public AdminHooks admin() {
        return admin;
    }

    /** For the engine's own tests (EngineInternals): the change log every write appends to. */
    ChangeLog changeLog() {
        return changeLog;
    }

    /**
     * Export and import jobs' records and the table snapshots they read. After close, the one built
     * before (its jobs still record how they ended) or, if none was, an IllegalStateException.
     */
    public Exchange exchange() {
        Exchange x = exchange;
        if (x == null) {
            synchronized (lazily) {
                x = exchange;
                if (x == null) {
                    if (exchangeClosed) {
                        throw new IllegalStateException("the engine is closed");
                    }
                    x = new Exchange(store, catalog, clock, owner);
                    exchange = x;
                }
            }
        }
        return x;
    }

    /** On-demand backups, point-in-time recovery, and reads of a table's past ({@code history()}). */
    public BackupSystem backups() {
        BackupSystem b = backups;
        if (b == null) {
            synchronized (lazily) {
                if (closed) {
                    throw new IllegalStateException("the engine is closed");
                }
                b = backups;
                if (b == null) {
                    b = new BackupSystem(catalog, store, changeLog, writer, clock, settings, owner);
                    backups = b;
                }
            }
        }
        return b;
    }

    /**
     * Whether the store holds a table with point-in-time recovery on, or any backup, recovery base
     * or restore job: then the backup system settles and takes them from the open on.
     */
    private boolean backupsAtOpen() {
        for (Table t : catalog.tables()) {
            if (t.descriptor().recovery().pitrEnabled()) {
                return true;
            }
        }
        try (Cursor c = store.scan(new byte[] {KeySpace.BACKUPS}, new byte[] {KeySpace.BACKUPS + 1}, false)) {
            return c.next();
        }
    }

    /**
     * Stops the background tasks first (the trimmer may build the backup system), then the export
     * and import jobs (an export reads through the backup system), then the backup jobs, then the
     * store.
     */
    @Override
    public void close() {
        catalogWatch.close();
        globalTables.close();
        kinesis.close();
        sweeper.close();
        trimmer.close();
        backfill.close();
        Exchange x;
        synchronized (lazily) {
            exchangeClosed = true;
            x = exchange;
        }
        if (x != null) {
            x.close();
        }
        BackupSystem b;
        synchronized (lazily) {
            closed = true;
            b = backups;
        }
        if (b != null) {
            b.close();
        }
        store.close();
    }

    // The callbacks the parts built at open take, as classes rather than a method reference
    // each: linking a lambda or method reference at its first run, and the first one's loading of
    // the linking machinery, took about a third of a cold Engine.inMemory() (see Clock.SYSTEM).

    /** The change log's floor of sequence numbers per table (StreamLifecycle::sequenceFloor). */
    private static final java.util.function.ToLongFunction<TableDescriptor> SEQUENCE_FLOORS =
            new java.util.function.ToLongFunction<>() {
                @Override
                public long applyAsLong(TableDescriptor d) {
                    return StreamLifecycle.sequenceFloor(d);
                }
            };

    /**
     * The trimmer's keepFrom: a table with point-in-time recovery on keeps the changes its window
     * needs, which the backup system knows (built now if it was not yet: another engine may have
     * turned recovery on, and this one then takes over the bases if that one stops).
     */
    private final class KeepFrom implements java.util.function.ToLongFunction<Table> {
        @Override
        public long applyAsLong(Table t) {
            long recovery = t.descriptor().recovery().pitrEnabled() ? backups().keepFrom(t) : Long.MAX_VALUE;
            return Math.min(recovery, globalTables.keepFrom(t)); // what a peer region has not acknowledged yet
        }
    }

    /** Whether a table id was dropped (catalog::dropped), which the writer asks before each commit. */
    /** Whether a table of that id is in the catalog (vector index records of dropped tables are removed at open). */
    private final class TableExists implements java.util.function.IntPredicate {
        @Override
        public boolean test(int tableId) {
            for (Table t : catalog.tables()) {
                if (t.descriptor().id() == tableId) {
                    return true;
                }
            }
            return false;
        }
    }

    private final class Dropped implements java.util.function.IntPredicate {
        @Override
        public boolean test(int tableId) {
            return catalog.dropped(tableId);
        }
    }
}
