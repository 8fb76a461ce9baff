package dev.kumiko.engine.replication;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.control.ControlPlane;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Global tables (version 2019.11.21) in this region: the replica updates of UpdateTable, what
 * DescribeTable shows of them, what a peer region asks of this one, and the shipper. A region is one
 * Kumiko deployment; it knows its name and its peers once {@link #configure}d (the server's
 * {@code --region} and {@code --peer} options). An engine never configured has no peers, and every
 * replica update is refused.
 */
public final class GlobalTables implements AutoCloseable, dev.kumiko.engine.item.SystemAttributes {
    /** The version DescribeTable names for a table with replicas. */
    public static final String VERSION = "2019.11.21";
    /** How long the shipper rests when a step found nothing to ship. */
    private static final long IDLE_MILLIS = 50;
    /** How long the shipper rests after a step failed (a peer refused a call): the log says why once a second. */
    private static final long ERROR_REST_MILLIS = 1_000;

    private final Catalog catalog;
    private final Store store;
    private final ChangeLog log;
    private final ControlPlane control;
    private final Registry registry;
    private final Clock clock;
    private final Stamps stamps;
    private final ChangeApplier applier;
    private final Shipper shipper;
    private final LegacyGlobalTables legacy;
    private final LegacySettings settings;
    private volatile String region = "";
    private volatile Map<String, PeerLink> peers = Map.of();
    private @Nullable Thread thread; // under this

    public GlobalTables(
            Store store,
            Catalog catalog,
            ChangeLog log,
            ItemWriter writer,
            ControlPlane control,
            Clock clock,
            String owner) {
        this.catalog = catalog;
        this.store = store;
        this.log = log;
        this.control = control;
        this.registry = new Registry(store);
        this.stamps = new Stamps(store, log);
        this.applier = new ChangeApplier(catalog, store, writer, stamps);
        this.shipper = new Shipper(
                catalog, store, log, stamps, registry, clock, new Lease(store, "replication-ship", owner, clock));
        this.legacy = new LegacyGlobalTables(catalog, store, log, registry);
        this.settings = new LegacySettings(catalog, control);
        this.clock = clock;
    }

    /** Names this region and its peers, and starts shipping (once; a later call changes the peers). */
    public synchronized void configure(String localRegion, Map<String, PeerLink> peerLinks) {
        if (localRegion.isEmpty() || localRegion.length() > Stamp.REGION_BYTES_MAX) {
            throw new IllegalArgumentException("region name of 1 to " + Stamp.REGION_BYTES_MAX + " characters");
        }
        this.region = localRegion;
        this.peers = Map.copyOf(peerLinks);
        if (thread == null && !peers.isEmpty()) {
            Thread t = new Thread(this::ship, "kumiko-replication-ship");
            t.setDaemon(true);
            t.start();
            thread = t;
        }
    }

    public String region() {
        return region;
    }

    public Set<String> peerRegions() {
        return peers.keySet();
    }

    /** The table's replica set, or null when the table has no replicas. */
    public @Nullable ReplicaSet replicas(String tableName) {
        return region.isEmpty() ? null : registry.get(tableName);
    }

    /** The lag of each (table, peer region), "table/region": how old its last shipped change was when acknowledged. */
    public Map<String, Long> replicationLatencyMillis() {
        return new TreeMap<>(shipper.latencyMillis());
    }

    /**
     * The creation time of the oldest change-log record of t some peer has not acknowledged yet
     * (Long.MAX_VALUE: none), which the change-log trimmer keeps past the stream's 24 hours, so a peer
     * that was away longer still gets every change.
     */
    public long keepFrom(Table t) {
        if (region.isEmpty()) {
            return Long.MAX_VALUE;
        }
        ReplicaSet set = registry.get(t.descriptor().tableName());
        if (set == null) {
            return Long.MAX_VALUE;
        }
        long oldest = Long.MAX_VALUE;
        for (String peer : set.peersOf(region)) {
            oldest = Math.min(
                    oldest,
                    ReplicationKeys.decodeLong(
                            store.get(ReplicationKeys.shipped(t.descriptor().id(), peer)), 1));
        }
        if (oldest == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        List<dev.kumiko.engine.changelog.ChangeRecord> first = log.read(
                        t.descriptor().id(), oldest, Long.MAX_VALUE, 1, Long.MAX_VALUE)
                .records();
        return first.isEmpty() ? Long.MAX_VALUE : first.get(0).createdMillis();
    }

    // ---- UpdateTable ReplicaUpdates, in the region that receives the request ----

    /** Create: the peer makes the table, the shipper copies the items, then both directions stay in sync. */
    public ReplicaSet createReplica(String tableName, String newRegion) {
        Table t = existing(tableName);
        PeerLink link = checkPeer(newRegion);
        TableDescriptor d = t.descriptor();
        if (!d.stream().enabled() || d.stream().viewType() != StreamViewType.NEW_AND_OLD_IMAGES) {
            // DynamoDB needs the stream with both images for a replica; the message is Kumiko's own.
            throw DynamoException.validation("Table " + tableName
                    + " must have DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES to add a replica");
        }
        ReplicaSet before = registry.get(tableName);
        refuseLegacy(before);
        ReplicaSet set = before != null
                ? before
                : new ReplicaSet(tableName, List.of(new ReplicaSet.Replica(region, ReplicaStatus.ACTIVE)));
        if (set.holds(newRegion)) {
            // DynamoDB's wording as users report it (typo included); the API Reference quotes none.
            throw DynamoException.validation("Failed to create a the new replica of table with name: '" + tableName
                    + "' because one or more replicas already existed as tables.");
        }
        if (set.replicas().size() >= ReplicaSet.REPLICAS_MAX) {
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED, "A table may have at most " + ReplicaSet.REPLICAS_MAX + " replicas");
        }
        ReplicaSet after = set.with(newRegion, ReplicaStatus.CREATING);
        call(newRegion, () -> link.createReplica(tableName, after));
        // Changes from here on are shipped; the backfill copies what was there before.
        long next = log.latest(d);
        WriteBatch positions = new WriteBatch()
                .put(ReplicationKeys.shipped(d.id(), newRegion), ReplicationKeys.encodeLong(next))
                // The backfill's marker: this region, and no other, copies the items to the new replica.
                .put(ReplicationKeys.backfill(d.id(), newRegion), ReplicationKeys.BACKFILL_NOT_STARTED);
        if (before == null) {
            positions.put(ReplicationKeys.stamped(d.id()), ReplicationKeys.encodeLong(next));
        }
        store.apply(positions);
        registry.put(after);
        publish(after, newRegion);
        return after;
    }

    /** Delete: the peer drops its table; the others forget the replica. */
    public ReplicaSet deleteReplica(String tableName, String oldRegion) {
        Table t = existing(tableName);
        ReplicaSet set = registry.get(tableName);
        refuseLegacy(set);
        if (set == null || !set.holds(oldRegion)) {
            // Kumiko's wording: the documented error type for a replica that is not there.
            throw DynamoException.validation("Replica specified in the Replica Update or Replica Delete action of the"
                    + " request was not found: " + oldRegion);
        }
        if (oldRegion.equals(region)) {
            throw DynamoException.validation(
                    "Kumiko deletes the replica in its own region only through another region: "
                            + "send this UpdateTable to a region that keeps the table");
        }
        PeerLink link = checkPeer(oldRegion);
        call(oldRegion, () -> link.deleteReplica(tableName));
        ReplicaSet after = set.without(oldRegion);
        registry.put(after);
        store.apply(new WriteBatch()
                .delete(ReplicationKeys.shipped(t.descriptor().id(), oldRegion))
                .delete(ReplicationKeys.backfill(t.descriptor().id(), oldRegion)));
        publish(after, oldRegion);
        return after;
    }

    // ---- the legacy version (2017.11.29), in the region that receives the request ----

    /** CreateGlobalTable: links the tables named name in regions, each existing and empty. */
    public ReplicaSet createGlobalTable(String name, List<String> regions) {
        checkConfigured();
        return legacy.create(name, regions, region, clock.nowMillis(), this::checkPeer);
    }

    /** UpdateGlobalTable: adds the regions of creates, removes those of deletes. */
    public ReplicaSet updateGlobalTable(String name, List<String> creates, List<String> deletes) {
        checkConfigured();
        return legacy.update(name, creates, deletes, region, this::checkPeer);
    }

    /** DescribeGlobalTable: the legacy set named name, or GlobalTableNotFoundException. */
    public ReplicaSet describeGlobalTable(String name) {
        return legacy.describe(name);
    }

    /** ListGlobalTables: legacy sets after exclusiveStart, of regionName when it is not null. */
    public ReplicaSetPage listGlobalTables(@Nullable String exclusiveStart, int limit, @Nullable String regionName) {
        return legacy.list(exclusiveStart, limit, regionName);
    }

    /** DescribeGlobalTableSettings: each region's table's settings, asked of that region. */
    public List<ReplicaSettings> describeGlobalTableSettings(String name) {
        ReplicaSet set = legacy.describe(name);
        checkConfigured();
        return settings.describe(set, region, this::checkPeer);
    }

    /** UpdateGlobalTableSettings: changes each region's table, this region's first. */
    public List<ReplicaSettings> updateGlobalTableSettings(String name, GlobalSettingsUpdate update) {
        ReplicaSet set = legacy.describe(name);
        checkConfigured();
        return settings.update(set, update, region, this::checkPeer);
    }

    /** What a peer asks of this region's table of a legacy global table: change it, and describe it. */
    public ReplicaSettings replicaSettings(String tableName, @Nullable SettingsChange change) {
        checkConfigured();
        ReplicaSet set = registry.get(tableName);
        if (set == null || !set.legacy() || !set.holds(region)) {
            throw new DynamoException(ErrorCode.GLOBAL_TABLE_NOT_FOUND, "Global table not found");
        }
        return settings.apply(tableName, change, region);
    }

    /**
     * The {@code aws:rep:*} attributes of a client's write at nowMillis to t, when t is this region's
     * replica of a legacy global table (version 2017.11.29); none otherwise, and none for a table of
     * the current version (which keeps its replication metadata out of items, as DynamoDB's does).
     */
    @Override
    public Map<String, dev.kumiko.model.AttributeValue> of(Table t, long nowMillis) {
        String local = region;
        if (local.isEmpty()) {
            return Map.of(); // no region: no global tables, and no store read per write
        }
        ReplicaSet set = registry.get(t.descriptor().tableName());
        if (set == null || !set.legacy() || !set.holds(local)) {
            return Map.of();
        }
        return LegacyAttributes.of(local, Math.max(0, nowMillis));
    }

    /** A legacy table's keys and indexes, which every region's table of it must share. */
    public static String keySignature(TableDescriptor d) {
        return LegacyGlobalTables.keySignature(d);
    }

    private void checkConfigured() {
        if (region.isEmpty()) {
            throw DynamoException.validation("Global tables need the server started with --region and --peer");
        }
    }

    /** The current version's replica updates do not apply to a legacy table, as in DynamoDB. */
    private static void refuseLegacy(@Nullable ReplicaSet set) {
        if (set != null && set.legacy()) {
            // Kumiko's wording; DynamoDB answers UpdateTable ReplicaUpdates on a legacy table with a
            // ValidationException.
            throw DynamoException.validation("Table " + set.tableName() + " is a global table of version "
                    + ReplicaSet.LEGACY + ": add and remove its replicas with UpdateGlobalTable");
        }
    }

    // ---- what a peer asks of this region ----

    /** A peer links this region's table into a legacy global table (CreateGlobalTable, UpdateGlobalTable). */
    public void joinGlobalTable(ReplicaSet set, String keySignature) {
        checkConfigured();
        legacy.join(set, keySignature, region);
    }

    /** A peer adds this region's replica: the table is made here as request describes it. */
    public void acceptReplica(CreateTableRequest request, ReplicaSet set) {
        if (!set.holds(region)) {
            throw DynamoException.validation("The replica set does not name this region, " + region);
        }
        control.createTable(new RequestContext(region), request);
        Table t = existing(request.tableName());
        store.apply(new WriteBatch()
                .put(
                        ReplicationKeys.stamped(t.descriptor().id()),
                        ReplicationKeys.encodeLong(log.latest(t.descriptor()))));
        registry.put(set);
    }

    /** A peer deletes this region's replica. */
    public void dropReplica(String tableName) {
        registry.delete(tableName);
        if (catalog.get(tableName) != null) {
            control.deleteTable(new RequestContext(region), tableName);
        }
    }

    /** A peer tells this region the table's replica set changed. */
    public void keep(ReplicaSet set) {
        if (catalog.get(set.tableName()) == null) {
            throw DynamoException.resourceNotFound(
                    "Requested resource not found: Table: " + set.tableName() + " not found");
        }
        if (set.holds(region)) {
            registry.put(set);
        } else {
            registry.delete(set.tableName());
        }
    }

    /** A peer's changes; answers how many were written (the rest lost to newer versions). */
    public int applyChanges(String tableName, List<ReplicatedChange> changes) {
        if (changes.size() > ReplicatedChange.PER_SHIPMENT_MAX) {
            throw DynamoException.validation(
                    "A shipment carries at most " + ReplicatedChange.PER_SHIPMENT_MAX + " changes");
        }
        if (region.isEmpty()) {
            throw DynamoException.validation("This Kumiko server has no region configured for global tables");
        }
        return applier.apply(tableName, changes, region);
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            shipper.release();
        }
    }

    private void ship() {
        while (!Thread.currentThread().isInterrupted()) {
            boolean busy = false;
            try {
                busy = shipper.step(region, peers);
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                System.getLogger(GlobalTables.class.getName())
                        .log(System.Logger.Level.WARNING, "replication step failed; it runs again in a second", e);
                busy = false;
                if (!rest(ERROR_REST_MILLIS)) {
                    return;
                }
            }
            if (!busy && !rest(IDLE_MILLIS)) {
                return;
            }
        }
    }

    /** Sleeps; false when interrupted (the engine closes). */
    private static boolean rest(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    private Table existing(String tableName) {
        Table t = catalog.get(tableName);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + tableName + " not found");
        }
        return t;
    }

    private PeerLink checkPeer(String other) {
        if (region.isEmpty()) {
            throw DynamoException.validation("Global tables need the server started with --region and --peer");
        }
        if (other.equals(region)) {
            throw DynamoException.validation("The replica region " + other + " is this table's own region");
        }
        PeerLink link = peers.get(other);
        if (link == null) {
            throw DynamoException.validation("Region " + other
                    + " is not a peer of this Kumiko region (start it with --peer " + other + "=URL)");
        }
        return link;
    }

    /** Tells every replica but this region and skip about set; one that does not answer hears of it later. */
    private void publish(ReplicaSet set, String skip) {
        for (String other : set.peersOf(region)) {
            PeerLink l = peers.get(other);
            if (l != null && !other.equals(skip)) {
                try {
                    l.publish(set);
                } catch (PeerLink.Unreachable e) {
                    // Its shipper keeps shipping to the replicas it knows; the set is sent again on the next change.
                }
            }
        }
    }

    private static void call(String peer, Runnable r) {
        try {
            r.run();
        } catch (PeerLink.Unreachable e) {
            throw new DynamoException(
                    ErrorCode.INTERNAL_SERVER_ERROR, "Region " + peer + " did not answer: " + e.getMessage());
        }
    }
}
