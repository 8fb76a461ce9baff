package dev.kumiko.engine;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.engine.control.ControlPlane;
import dev.kumiko.engine.index.IndexBackfill;
import dev.kumiko.engine.item.ItemOperations;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.engine.read.ReadOperations;
import dev.kumiko.engine.txn.TransactionOperations;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;

/**
 * The DynamoDB engine over one store: typed requests in, typed results out, no HTTP or JSON. The
 * server and in-process callers (tests that embed Kumiko) use the same instance type.
 */
public final class Engine implements AutoCloseable {
    private final Store store;
    private final Catalog catalog;
    private final ControlPlane controlPlane;
    private final ItemOperations items;
    private final ReadOperations reads;
    private final TransactionOperations transactions;
    private final IndexBackfill backfill;

    private Engine(Store store, Clock clock, EngineSettings settings) {
        this.store = store;
        this.catalog = new Catalog(store);
        LockStripes locks = new LockStripes();
        TransactionHolds holds = new TransactionHolds();
        ItemWriter writer = new ItemWriter(store, settings);
        ThroughputLimiter throughput = new ThroughputLimiter(clock, settings.throttling());
        this.backfill = new IndexBackfill(catalog, store, locks);
        this.controlPlane = new ControlPlane(catalog, clock, backfill, throughput);
        this.items = new ItemOperations(catalog, store, locks, holds, writer, throughput);
        this.reads = new ReadOperations(catalog, store, throughput);
        this.transactions = new TransactionOperations(catalog, store, locks, holds, writer, clock, throughput);
        backfill.resumeAll();
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

    public ControlPlane control() {
        return controlPlane;
    }

    public ItemOperations items() {
        return items;
    }

    public ReadOperations reads() {
        return reads;
    }

    public TransactionOperations transactions() {
        return transactions;
    }

    public Catalog catalog() {
        return catalog;
    }

    @Override
    public void close() {
        backfill.close();
        store.close();
    }
}
