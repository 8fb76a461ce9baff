package dev.kumiko.catalog;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Counters;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.ReadModifyWrite;
import dev.kumiko.storage.ReadModifyWrite.Claimed;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The tables, kept in the store's catalog space and mirrored in memory.
 *
 * <p>Shared by every engine over the store: each change to the catalog adds 1 to a version counter
 * in its own commit, and an engine reloads its mirror when the stored version differs from the
 * one it reflects. It compares on a lookup that misses (so a table another engine just created is
 * usable at once) and on {@link #refresh}, which the engine calls on a short interval (so updates
 * and deletes show within it). A lookup that hits costs nothing extra. Table ids and names are
 * taken in store transactions, so two engines never hand out one id or create one name twice.
 * A descriptor change ({@link #modify}) is a read-modify-write of the table's catalog key in a
 * store transaction, so two engines' changes never lose one another. Control-plane changes of one
 * engine are also serialized by the catalog's lock; data-plane reads of the map take none.
 */
public final class Catalog {
    /** DynamoDB's default per-account, per-region table quota. */
    public static final int TABLES_MAX = 2500;

    private static final byte[] NEXT_ID_KEY = new ByteSink(16)
            .put(KeySpace.META)
            .put("next-id".getBytes(StandardCharsets.US_ASCII))
            .toArray();
    private static final byte[] VERSION_KEY = new ByteSink(16)
            .put(KeySpace.META)
            .put("catalog-version".getBytes(StandardCharsets.US_ASCII))
            .toArray();

    private final Store store;
    /** Over a local store: ids of the tables any engine in this process dropped; else null. */
    private final java.util.@Nullable Set<Integer> droppedIds;

    private final ConcurrentSkipListMap<String, Table> tables = new ConcurrentSkipListMap<>();
    /** The stored catalog version the map reflects. */
    private volatile long version;

    /**
     * The ids of tables dropped through any engine over a local store (ids are never reused, so
     * the set only grows, by one small entry per DeleteTable in this process's life).
     */
    static final class Dropped {
        final java.util.Set<Integer> ids = java.util.concurrent.ConcurrentHashMap.newKeySet();
    }

    /** A class, not Dropped::new: it runs at every engine's open (see Clock.SYSTEM). */
    private static final java.util.function.Supplier<Dropped> NEW_DROPPED = new java.util.function.Supplier<>() {
        @Override
        public Dropped get() {
            return new Dropped();
        }
    };

    public Catalog(Store store) {
        this.store = store;
        this.droppedIds = store.local() ? store.shared(Dropped.class, NEW_DROPPED).ids : null;
        synchronized (this) {
            reload(Counters.decode(store.get(VERSION_KEY)));
        }
    }

    /**
     * Makes the map match the store's catalog space: descriptors only, O(tables). A table's
     * statistics are store counters, so nothing is counted, except once for a table from before
     * they were kept.
     */
    private void reload(long storedVersion) {
        assert Thread.holdsLock(this);
        Map<String, Table> seen = new HashMap<>();
        byte[] start = {KeySpace.CATALOG};
        byte[] end = {KeySpace.CATALOG + 1};
        try (Cursor c = store.scan(start, end, false)) {
            while (c.next()) {
                TableDescriptor d = DescriptorCodec.decode(c.value());
                Table t = tables.get(d.tableName());
                if (t == null || t.descriptor().id() != d.id()) {
                    t = new Table(d, store);
                    if (!CatalogCounts.kept(store, d.id())) {
                        CatalogCounts.countOnce(store, t);
                    }
                } else if (!t.descriptor().equals(d)) {
                    t.setDescriptor(d);
                }
                seen.put(d.tableName(), t);
            }
        }
        tables.keySet().retainAll(seen.keySet());
        tables.putAll(seen);
        version = storedVersion;
    }

    /**
     * Reloads the map if another engine changed the catalog since it was read; true if it did.
     * One store read when nothing changed.
     */
    public boolean refresh() {
        long stored = Counters.decode(store.get(VERSION_KEY));
        if (stored == version) {
            return false;
        }
        synchronized (this) {
            long now = Counters.decode(store.get(VERSION_KEY));
            if (now != version) {
                reload(now);
            }
        }
        return true;
    }

    /**
     * The table, or null. A miss looks at the map again after {@link #refresh} whatever it answers:
     * another thread may have reloaded the map between this thread's miss and its refresh, which
     * then finds nothing to do (a table created on another engine was reported missing that way).
     */
    public @Nullable Table get(String tableName) {
        Table t = tables.get(tableName);
        if (t == null) {
            refresh();
            t = tables.get(tableName);
        }
        return t;
    }

    /**
     * The table as this engine's mirror has it, without looking at the store: for code inside a
     * store transaction, which must never take the catalog's lock (docs/architecture.md, lock
     * order).
     */
    public @Nullable Table mirrored(String tableName) {
        return tables.get(tableName);
    }

    /** Every table, in name order: a snapshot for background tasks that visit them all. */
    public List<Table> tables() {
        return List.copyOf(tables.values());
    }

    public int size() {
        return tables.size();
    }

    /** Table names in DynamoDB's ListTables order (ascending), after exclusiveStart, at most limit. */
    public List<String> names(@Nullable String exclusiveStart, int limit) {
        var view = exclusiveStart == null
                ? tables.keySet()
                : tables.tailMap(exclusiveStart, false).keySet();
        List<String> out = new ArrayList<>(Math.min(limit, 128));
        for (String name : view) {
            if (out.size() == limit) {
                break;
            }
            out.add(name);
        }
        return out;
    }

    /** A new table or index id, never handed out before by any engine over the store. */
    public synchronized int allocateId() {
        // No TransactWriteItems claims a catalog key, so RETRY only says: every conflict is a race.
        return ReadModifyWrite.SYSTEM.run(Claimed.RETRY, Catalog::keptConflicting, this::takeNextId);
    }

    /** One attempt of {@link #allocateId}. */
    private int takeNextId() {
        try (Transaction txn = store.begin(NEXT_ID_KEY)) {
            byte[] next = txn.get(NEXT_ID_KEY);
            int id = next == null ? 1 : ByteBuffer.wrap(next).getInt();
            txn.commit(new WriteBatch()
                    .put(NEXT_ID_KEY, ByteBuffer.allocate(4).putInt(id + 1).array()));
            return id;
        }
    }

    /** Adds a table; returns false if the name is taken (here or by another engine). */
    public synchronized boolean create(TableDescriptor d) {
        if (tables.containsKey(d.tableName())) {
            return false;
        }
        byte[] key = catalogKey(d.tableName());
        boolean created = ReadModifyWrite.SYSTEM.run(Claimed.RETRY, Catalog::keptConflicting, () -> storeNew(key, d));
        if (!created) {
            return false;
        }
        tables.put(d.tableName(), new Table(d, store));
        noteOwnChange();
        return true;
    }

    /** One attempt of {@link #create}: stores d at key unless the name is taken (the map then reloads). */
    private boolean storeNew(byte[] key, TableDescriptor d) {
        assert Thread.holdsLock(this);
        try (Transaction txn = store.begin(key)) {
            if (txn.get(key) != null) {
                reload(Counters.decode(store.get(VERSION_KEY)));
                return false;
            }
            WriteBatch batch =
                    new WriteBatch().put(key, DescriptorCodec.encode(d)).add(VERSION_KEY, 1);
            CatalogCounts.markKept(batch, d.id());
            txn.commit(batch);
            return true;
        }
    }

    /**
     * Changes table t's descriptor as a store transaction on its catalog key: change is applied to
     * the stored descriptor, and the result commits only if the key still holds what was read
     * (another engine's update meanwhile makes it read again and ask change again, which
     * re-validates). change runs outside any store transaction, so it may allocate ids. Returns the
     * committed descriptor, or null when t is gone (deleted, or replaced by a table of that name).
     */
    // NullAway 0.14 cannot carry the null of modifyOnce through run's type variable T.
    @SuppressWarnings("NullAway")
    public synchronized @Nullable TableDescriptor modify(Table t, UnaryOperator<TableDescriptor> change) {
        String name = t.descriptor().tableName();
        int tableId = t.descriptor().id();
        byte[] key = catalogKey(name);
        return ReadModifyWrite.SYSTEM.run(
                Claimed.RETRY,
                last -> {
                    // UNVERIFIED wording: DynamoDB's answer to a change of a table being updated.
                    throw new DynamoException(
                            ErrorCode.RESOURCE_IN_USE,
                            "Attempt to change a resource which is still in use: Table is being updated: " + name);
                },
                () -> modifyOnce(t, tableId, key, change));
    }

    /** One attempt of {@link #modify}. */
    private @Nullable TableDescriptor modifyOnce(
            Table t, int tableId, byte[] key, UnaryOperator<TableDescriptor> change) {
        assert Thread.holdsLock(this);
        byte[] before = store.get(key);
        TableDescriptor current = before == null ? null : DescriptorCodec.decode(before);
        if (before == null || current == null || current.id() != tableId) {
            reload(Counters.decode(store.get(VERSION_KEY)));
            return null;
        }
        TableDescriptor next = change.apply(current);
        if (next.equals(current)) {
            t.setDescriptor(current);
            return current;
        }
        commitIfUnchanged(key, before, next);
        t.setDescriptor(next);
        noteOwnChange();
        return next;
    }

    /**
     * Commits next at key if it still holds before. A change meanwhile is a conflict like the
     * store's own (a concurrent change to a key read), so the runner runs the cycle again.
     */
    private void commitIfUnchanged(byte[] key, byte[] before, TableDescriptor next) {
        try (Transaction txn = store.begin(key)) {
            if (!Arrays.equals(txn.get(key), before)) {
                throw new StoreConflictException(null, false);
            }
            txn.commit(new WriteBatch().put(key, DescriptorCodec.encode(next)).add(VERSION_KEY, 1));
        }
    }

    /**
     * After this engine's change: if no other engine changed the catalog meanwhile, the map is
     * current at the new version; otherwise the next refresh reloads.
     */
    private void noteOwnChange() {
        long stored = Counters.decode(store.get(VERSION_KEY));
        if (stored == version + 1) {
            version = stored;
        }
    }

    /**
     * The give-up answer of a catalog transaction that kept conflicting: an internal error (the
     * client sees a 500, which the SDKs retry), since DynamoDB has no conflict answer for a
     * control-plane call.
     */
    @SuppressWarnings("TypeParameterUnusedInFormals") // it only throws; T lets it serve as any GiveUp
    private static <T> T keptConflicting(StoreConflictException last) {
        throw new IllegalStateException("catalog transaction kept conflicting", last);
    }

    /** Marks a backfilled GSI ACTIVE, unless it was deleted meanwhile. */
    public synchronized void activateIndex(Table t, int indexId) {
        if (tables.get(t.descriptor().tableName()) != t) {
            return;
        }
        modify(t, d -> {
            List<IndexDescriptor> gsis =
                    new ArrayList<>(d.globalSecondaryIndexes().size());
            for (IndexDescriptor x : d.globalSecondaryIndexes()) {
                gsis.add(x.id() == indexId ? x.withStatus(IndexDescriptor.ACTIVE) : x);
            }
            return d.withGlobalIndexes(d.attributeDefinitions(), List.copyOf(gsis));
        });
    }

    /** Removes a deleted index's entries and statistics; its descriptor is already gone. */
    public void dropIndex(Table t, IndexDescriptor x) {
        assert !t.descriptor().globalSecondaryIndexes().contains(x) : "index still in the descriptor";
        store.deleteRange(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()));
        int tableId = t.descriptor().id();
        store.apply(new WriteBatch()
                .delete(StatsKeys.index(tableId, StatsKeys.INDEX_COUNT, x.id()))
                .delete(StatsKeys.index(tableId, StatsKeys.INDEX_BYTES, x.id())));
        t.dropIndexStats(x.id());
    }

    /**
     * Whether table tableId was dropped, as far as a writer inside its store transaction can tell
     * without a store call: over a local store exactly (every engine in this process sees a drop at
     * once, and {@link #drop} waits for the transactions that began before it); over a store shared
     * by processes, only once this engine's mirror has caught up (see docs/architecture.md).
     */
    public boolean dropped(int tableId) {
        return droppedIds != null && droppedIds.contains(tableId);
    }

    /**
     * Removes a table and every key it owns: items, index entries, change log. Over a local store,
     * a write that began before the drop is waited for (its keys go with the range deletes), and one
     * that begins after it sees {@link #dropped}.
     */
    public synchronized void drop(String tableName) {
        Table t = tables.remove(tableName);
        if (t == null) {
            return;
        }
        TableDescriptor d = t.descriptor();
        store.apply(new WriteBatch().delete(catalogKey(tableName)).add(VERSION_KEY, 1));
        noteOwnChange();
        if (droppedIds != null) {
            droppedIds.add(d.id());
            store.awaitTransactions();
        }
        store.deleteRange(KeySpace.prefix(KeySpace.ITEMS, d.id()), KeySpace.prefixEnd(KeySpace.ITEMS, d.id()));
        store.deleteRange(
                KeySpace.prefix(KeySpace.CHANGE_LOG, d.id()), KeySpace.prefixEnd(KeySpace.CHANGE_LOG, d.id()));
        store.deleteRange(KeySpace.prefix(KeySpace.STATS, d.id()), KeySpace.prefixEnd(KeySpace.STATS, d.id()));
        store.deleteRange(
                KeySpace.prefix(KeySpace.RESOURCE_POLICIES, d.id()),
                KeySpace.prefixEnd(KeySpace.RESOURCE_POLICIES, d.id()));
        store.deleteRange(KeySpace.prefix(KeySpace.KINESIS, d.id()), KeySpace.prefixEnd(KeySpace.KINESIS, d.id()));
        for (IndexDescriptor x : d.localSecondaryIndexes()) {
            store.deleteRange(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()));
        }
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            store.deleteRange(KeySpace.prefix(KeySpace.INDEX, x.id()), KeySpace.prefixEnd(KeySpace.INDEX, x.id()));
        }
    }

    private static byte[] catalogKey(String tableName) {
        return new ByteSink(1 + tableName.length())
                .put(KeySpace.CATALOG)
                .put(tableName.getBytes(StandardCharsets.UTF_8))
                .toArray();
    }
}
