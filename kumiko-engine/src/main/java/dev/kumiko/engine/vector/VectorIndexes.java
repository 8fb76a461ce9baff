package dev.kumiko.engine.vector;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import org.jspecify.annotations.Nullable;

/**
 * Every vector index of the tables of one store: their definitions (persisted, see
 * {@link VectorDefinitionsCodec}) and their live indexes. Over a local store every engine shares
 * one instance ({@link Store#shared}), so writes through any engine of the process reach it. A
 * store shared by processes (Ignite) has no process memory that every writer updates, so vector
 * indexes are refused there ({@link #supported}).
 *
 * <p>Live indexes are derived data: at open each one is loaded from its table's items by a
 * background thread (a search waits for it, bounded), and the write path keeps them current
 * ({@link #changed}) after each commit, inside the writer's store transaction, so one item's
 * changes reach the index in commit order.
 */
public final class VectorIndexes {
    /** The system property that picks the searcher: "hnsw" (the default) or "exact"; see {@link #searcherFactory}. */
    public static final String SEARCHER_PROPERTY = "kumiko.vector.searcher";

    private final @Nullable Store store;
    private final VectorSearcher.Factory factory;
    /** tableId -> its indexes by name; each inner map is replaced, never changed in place. */
    private final ConcurrentHashMap<Integer, Map<String, LiveVectorIndex>> tables = new ConcurrentHashMap<>();

    private final VectorApplier applier = new VectorApplier(new DrainAll());

    private VectorIndexes(@Nullable Store store) {
        this.store = store;
        this.factory = searcherFactory();
    }

    /** A class, not this::drainAll: an engine's open spins no lambda (see Clock.SYSTEM). */
    private final class DrainAll implements Runnable {
        @Override
        public void run() {
            drainAll();
        }
    }

    /** Makes the shared instance; a class, not a lambda, for the same reason. */
    private static final class Create implements java.util.function.Supplier<VectorIndexes> {
        private final Store store;

        Create(Store store) {
            this.store = store;
        }

        @Override
        public VectorIndexes get() {
            return new VectorIndexes(store);
        }
    }

    /** Applies every index's queued changes. */
    private void drainAll() {
        for (Map<String, LiveVectorIndex> live : tables.values()) {
            for (LiveVectorIndex x : live.values()) {
                if (x.hasPending()) {
                    x.drain();
                }
            }
        }
    }

    /** The vector indexes of the store: the one shared instance over a local store. */
    public static VectorIndexes of(Store store, IntPredicate tableExists) {
        if (!store.local()) {
            return new VectorIndexes(null);
        }
        VectorIndexes shared = store.shared(VectorIndexes.class, new Create(store));
        shared.loadOnce(tableExists);
        return shared;
    }

    /**
     * Kumiko's HNSW graph, unless the system property {@value #SEARCHER_PROPERTY} names another:
     * "exact" for the scan, or the name of a {@link VectorSearcher.Factory} service on the class
     * path (how the benchmark plugs Lucene's graph in).
     */
    static VectorSearcher.Factory searcherFactory() {
        String wanted = System.getProperty(SEARCHER_PROPERTY);
        if (wanted == null || HnswSearcher.FACTORY.name().equals(wanted)) {
            return HnswSearcher.FACTORY;
        }
        if (ExactSearcher.FACTORY.name().equals(wanted)) {
            return ExactSearcher.FACTORY;
        }
        for (VectorSearcher.Factory f : ServiceLoader.load(VectorSearcher.Factory.class)) {
            if (wanted.equals(f.name())) {
                return f;
            }
        }
        throw new IllegalStateException("no vector searcher named " + wanted + " (-D" + SEARCHER_PROPERTY + ")");
    }

    /**
     * Query and Scan on a vector index: refused (Developer Guide, "Vector indexes do not support
     * Query or Scan operations"; the wording is UNVERIFIED). One map lookup when an index is named.
     */
    public static void refuseRead(Store store, int tableId, @Nullable String indexName) {
        if (indexName == null || !store.local()) {
            return;
        }
        VectorIndexes shared = store.shared(VectorIndexes.class, new Create(store));
        if (shared.find(tableId, indexName) != null) {
            throw DynamoException.validation(
                    "Vector indexes do not support Query or Scan operations; use SearchVectors to read from index "
                            + indexName);
        }
    }

    /**
     * A restored table takes its source table's vector indexes as they are now (Kumiko does not
     * keep them with a backup, so a backup of a table deleted since restores none), unless the
     * restore makes it a provisioned table, which cannot have them.
     */
    public static void copyToRestoredTable(
            Store store, int sourceTableId, int targetTableId, dev.kumiko.model.BillingMode targetBilling) {
        if (!store.local() || targetBilling != dev.kumiko.model.BillingMode.PAY_PER_REQUEST) {
            return;
        }
        VectorIndexes shared = store.shared(VectorIndexes.class, new Create(store));
        List<VectorIndexDefinition> defs = shared.definitions(sourceTableId);
        if (!defs.isEmpty()) {
            List<VectorIndexDefinition> active = new ArrayList<>(defs.size());
            defs.forEach(d -> active.add(d.active()));
            shared.createWithTable(targetTableId, active);
        }
    }

    /** Whether this store can hold vector indexes. */
    public boolean supported() {
        return store != null;
    }

    /** The searcher in use ("exact", "hnsw"). */
    public String searcherName() {
        return factory.name();
    }

    /** Refuses a vector index on a store that cannot keep one. */
    public void requireSupported() {
        if (store == null) {
            // Kumiko's own limit, not DynamoDB's: no DynamoDB message to match.
            throw DynamoException.validation(
                    "Vector indexes are not supported on this store (Kumiko keeps them on the memory and RocksDB stores)");
        }
    }

    private boolean loaded;

    private synchronized void loadOnce(IntPredicate tableExists) {
        if (loaded || store == null) {
            return;
        }
        loaded = true;
        Map<Integer, List<VectorIndexDefinition>> found = new LinkedHashMap<>();
        try (Cursor c = store.scan(VectorDefinitionsCodec.PREFIX, VectorDefinitionsCodec.prefixEnd(), false)) {
            while (c.next()) {
                found.put(VectorDefinitionsCodec.tableIdOf(c.key()), VectorDefinitionsCodec.decode(c.value()));
            }
        }
        for (Map.Entry<Integer, List<VectorIndexDefinition>> e : found.entrySet()) {
            int tableId = e.getKey();
            if (!tableExists.test(tableId)) {
                store.apply(new WriteBatch().delete(VectorDefinitionsCodec.key(tableId)));
                continue;
            }
            Map<String, LiveVectorIndex> live = new LinkedHashMap<>();
            for (VectorIndexDefinition d : e.getValue()) {
                // A backfill cut short by a restart finishes as this load does.
                live.put(d.indexName(), new LiveVectorIndex(d.active(), factory));
            }
            tables.put(tableId, Map.copyOf(live));
            startLoad(tableId, List.copyOf(live.values()), true);
        }
    }

    /** The table's indexes' definitions, in creation order; empty when it has none. */
    public List<VectorIndexDefinition> definitions(int tableId) {
        Map<String, LiveVectorIndex> live = tables.get(tableId);
        if (live == null) {
            return List.of();
        }
        List<VectorIndexDefinition> out = new ArrayList<>(live.size());
        live.values().forEach(x -> out.add(x.definition()));
        out.sort(java.util.Comparator.comparing(VectorIndexDefinition::indexName));
        return out;
    }

    /** What DescribeTable reports of one index. */
    public record Described(VectorIndexDefinition definition, long itemCount, long sizeBytes) {}

    public List<Described> describe(int tableId) {
        Map<String, LiveVectorIndex> live = tables.get(tableId);
        if (live == null) {
            return List.of();
        }
        List<Described> out = new ArrayList<>(live.size());
        for (LiveVectorIndex x : live.values()) {
            out.add(new Described(x.definition(), x.itemCount(), x.sizeBytes()));
        }
        out.sort(java.util.Comparator.comparing(d -> d.definition().indexName()));
        return out;
    }

    @Nullable
    LiveVectorIndex find(int tableId, String indexName) {
        Map<String, LiveVectorIndex> live = tables.get(tableId);
        return live == null ? null : live.get(indexName);
    }

    /** The indexes of a table being created (it holds no items yet): ACTIVE at once. */
    public synchronized void createWithTable(int tableId, List<VectorIndexDefinition> defs) {
        requireSupported();
        Map<String, LiveVectorIndex> live = new LinkedHashMap<>();
        for (VectorIndexDefinition d : defs) {
            LiveVectorIndex x = new LiveVectorIndex(d.active(), factory);
            x.loadFinished();
            live.put(d.indexName(), x);
        }
        tables.put(tableId, Map.copyOf(live));
        persist(tableId);
    }

    /**
     * Adds an index to a table that may hold items: CREATING and backfilling while a background
     * thread reads the table's items into it, then ACTIVE. Writes reach it from the start.
     */
    public synchronized void add(int tableId, VectorIndexDefinition def) {
        requireSupported();
        LiveVectorIndex x = new LiveVectorIndex(def.creating(), factory);
        Map<String, LiveVectorIndex> live = new LinkedHashMap<>(tables.getOrDefault(tableId, Map.of()));
        live.put(def.indexName(), x);
        tables.put(tableId, Map.copyOf(live));
        persist(tableId);
        startLoad(tableId, List.of(x), false);
    }

    /** Removes an index; its memory goes with it. */
    public synchronized void delete(int tableId, String indexName) {
        Map<String, LiveVectorIndex> live = new LinkedHashMap<>(tables.getOrDefault(tableId, Map.of()));
        live.remove(indexName);
        if (live.isEmpty()) {
            tables.remove(tableId);
        } else {
            tables.put(tableId, Map.copyOf(live));
        }
        persist(tableId);
    }

    /** Forgets a deleted table's indexes. */
    public synchronized void dropTable(int tableId) {
        if (tables.remove(tableId) != null) {
            persist(tableId);
        }
    }

    private void persist(int tableId) {
        Store s = store;
        if (s == null) {
            return;
        }
        List<VectorIndexDefinition> defs = definitions(tableId);
        byte[] key = VectorDefinitionsCodec.key(tableId);
        s.apply(
                defs.isEmpty()
                        ? new WriteBatch().delete(key)
                        : new WriteBatch().put(key, VectorDefinitionsCodec.encode(defs)));
    }

    /**
     * The write path's hook: one item of the table changed (newItem null: deleted), already
     * committed. A table without vector indexes costs one map lookup.
     */
    public void changed(int tableId, byte[] storageKey, @Nullable Map<String, AttributeValue> newItem) {
        Map<String, LiveVectorIndex> live = tables.get(tableId);
        if (live == null) {
            return;
        }
        boolean wake = false;
        for (LiveVectorIndex x : live.values()) {
            wake |= x.offer(storageKey, newItem);
        }
        if (wake) {
            applier.wake();
        }
    }

    /** Reads the table's items into the indexes on a daemon thread; a backfill marks them ACTIVE after. */
    private void startLoad(int tableId, List<LiveVectorIndex> indexes, boolean atOpen) {
        Thread t = new Thread(() -> load(tableId, indexes, atOpen), "kumiko-vector-load-" + tableId);
        t.setDaemon(true);
        t.start();
    }

    private void load(int tableId, List<LiveVectorIndex> indexes, boolean atOpen) {
        Store s = store;
        try {
            if (s != null) {
                try (Cursor c = s.scan(
                        KeySpace.prefix(KeySpace.ITEMS, tableId), KeySpace.prefixEnd(KeySpace.ITEMS, tableId), false)) {
                    while (c.next()) {
                        byte[] key = c.key().clone();
                        Map<String, AttributeValue> item = ItemCodec.decode(c.value());
                        for (LiveVectorIndex x : indexes) {
                            x.load(key, item);
                        }
                    }
                }
            }
        } finally {
            for (LiveVectorIndex x : indexes) {
                x.loadFinished();
            }
            if (!atOpen) {
                activate(tableId, indexes);
            }
        }
    }

    private synchronized void activate(int tableId, List<LiveVectorIndex> indexes) {
        Map<String, LiveVectorIndex> live = tables.get(tableId);
        if (live == null) {
            return;
        }
        for (LiveVectorIndex x : indexes) {
            if (live.get(x.definition().indexName()) == x) {
                x.setDefinition(x.definition().active());
            }
        }
        persist(tableId);
    }
}
