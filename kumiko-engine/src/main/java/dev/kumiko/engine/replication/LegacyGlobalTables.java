package dev.kumiko.engine.replication;

import dev.kumiko.catalog.AttributeDefinition;
import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Global tables of the legacy version (2017.11.29): CreateGlobalTable links tables of one name that
 * already exist, empty, in each region; UpdateGlobalTable adds and removes regions; Describe and
 * List report them. Their items replicate as the current version's do (the same shipper, stamps
 * and last-writer-wins rule); what differs is how the set is made: every table is made by the user
 * beforehand, each must be empty, with the same keys and indexes and a stream with both images
 * (CreateGlobalTable in the API Reference), and removing a region leaves its table in place.
 *
 * <p>The {@code aws:rep:*} attributes this version keeps in each item are {@link LegacyAttributes};
 * the settings operations are {@link LegacySettings}.
 */
final class LegacyGlobalTables {
    /** ListGlobalTables' Limit, when the request gives none, and its bound (API Reference: 1-100). */
    static final int LIST_LIMIT_MAX = 100;

    private final Catalog catalog;
    private final Store store;
    private final ChangeLog log;
    private final Registry registry;

    LegacyGlobalTables(Catalog catalog, Store store, ChangeLog log, Registry registry) {
        this.catalog = catalog;
        this.store = store;
        this.log = log;
        this.registry = registry;
    }

    /**
     * CreateGlobalTable in region local: checks local's table, has each other region join (each
     * checks its own table), then keeps the set. When a region refuses, the regions that joined
     * before it are told to forget the set, so that it is made in every region or in none.
     */
    ReplicaSet create(
            String name, List<String> regions, String local, long nowMillis, Function<String, PeerLink> peer) {
        Set<String> group = new LinkedHashSet<>(regions);
        if (!group.contains(local)) {
            // Kumiko's wording: the call is answered by one of the group's regions, as in DynamoDB.
            throw DynamoException.validation(
                    "The ReplicationGroup must include this region, " + local + ", which answers the request");
        }
        Table t = table(name);
        ReplicaSet existing = registry.get(name);
        if (existing != null) {
            throw new DynamoException(
                    ErrorCode.GLOBAL_TABLE_ALREADY_EXISTS, "Global table with this name already exists");
        }
        checkJoinable(t, keySignature(t.descriptor()));
        List<ReplicaSet.Replica> replicas = new ArrayList<>();
        for (String r : group) {
            replicas.add(new ReplicaSet.Replica(r, ReplicaStatus.ACTIVE));
        }
        ReplicaSet set = new ReplicaSet(name, replicas, ReplicaSet.LEGACY, nowMillis);
        List<PeerLink> links = new ArrayList<>();
        for (String r : set.peersOf(local)) {
            links.add(peer.apply(r)); // every region a peer before any is called
        }
        List<PeerLink> joined = new ArrayList<>();
        try {
            for (PeerLink l : links) {
                l.joinGlobalTable(set);
                joined.add(l);
            }
        } catch (RuntimeException e) {
            ReplicaSet none = new ReplicaSet(name, List.of(), ReplicaSet.LEGACY, nowMillis);
            for (PeerLink l : joined) {
                try {
                    l.publish(none);
                } catch (PeerLink.Unreachable ignored) {
                    // it keeps a set no other region has; UpdateGlobalTable from there can remove it
                }
            }
            throw e;
        }
        startShipping(t, set.peersOf(local), true);
        registry.put(set);
        return set;
    }

    /**
     * UpdateGlobalTable: adds regions (each joins with an empty table; this region then copies the
     * items to it) and removes others (they forget the set and keep their tables).
     */
    ReplicaSet update(
            String name, List<String> creates, List<String> deletes, String local, Function<String, PeerLink> peer) {
        ReplicaSet set = legacySet(name);
        for (String r : creates) {
            if (set.holds(r)) {
                throw new DynamoException(ErrorCode.REPLICA_ALREADY_EXISTS, "Replica already exists: " + r);
            }
        }
        for (String r : deletes) {
            if (!set.holds(r)) {
                throw new DynamoException(ErrorCode.REPLICA_NOT_FOUND, "Replica not found: " + r);
            }
        }
        Table t = table(name);
        ReplicaSet after = set;
        for (String r : creates) {
            after = after.with(r, ReplicaStatus.CREATING);
        }
        for (String r : deletes) {
            after = after.without(r);
        }
        List<PeerLink> joining = new ArrayList<>();
        for (String r : creates) {
            joining.add(peer.apply(r)); // every region a peer before any is called
        }
        for (PeerLink l : joining) {
            l.joinGlobalTable(after);
        }
        startShipping(t, creates, false);
        for (String r : deletes) {
            store.apply(new WriteBatch()
                    .delete(ReplicationKeys.shipped(t.descriptor().id(), r))
                    .delete(ReplicationKeys.backfill(t.descriptor().id(), r)));
        }
        registry.put(after);
        ReplicaSet forgotten = new ReplicaSet(name, List.of(), ReplicaSet.LEGACY, set.createdMillis());
        for (String r : set.peersOf(local)) {
            if (creates.contains(r)) {
                continue;
            }
            try {
                peer.apply(r).publish(deletes.contains(r) ? forgotten : after);
            } catch (PeerLink.Unreachable e) {
                // the set is sent again with the next change of it
            }
        }
        if (deletes.contains(local)) {
            registry.delete(name);
        }
        return after;
    }

    /** What a region asked to join a legacy set checks and keeps. */
    void join(ReplicaSet set, String keySignature, String local) {
        if (!set.legacy() || !set.holds(local)) {
            throw DynamoException.validation("The replica set is not a legacy global table naming " + local);
        }
        Table t = table(set.tableName());
        ReplicaSet existing = registry.get(set.tableName());
        if (existing != null && !existing.legacy()) {
            throw new DynamoException(
                    ErrorCode.GLOBAL_TABLE_ALREADY_EXISTS, "Global table with this name already exists");
        }
        checkJoinable(t, keySignature);
        startShipping(t, set.peersOf(local), true); // its table is empty: nothing to copy
        registry.put(set);
    }

    ReplicaSet describe(String name) {
        return legacySet(name);
    }

    /** The legacy sets after exclusiveStart, in name order, of region when it is not null. */
    ReplicaSetPage list(@Nullable String exclusiveStart, int limit, @Nullable String region) {
        assert limit >= 1 && limit <= LIST_LIMIT_MAX : limit;
        List<ReplicaSet> out = new ArrayList<>();
        boolean more = false;
        for (ReplicaSet s : registry.all()) {
            if (!s.legacy() || (exclusiveStart != null && s.tableName().compareTo(exclusiveStart) <= 0)) {
                continue;
            }
            if (region != null && !s.holds(region)) {
                continue;
            }
            if (out.size() == limit) {
                more = true;
                break;
            }
            out.add(s);
        }
        return new ReplicaSetPage(out, more ? out.get(out.size() - 1).tableName() : null);
    }

    /**
     * The table's keys and indexes, which every replica's table must share (CreateGlobalTable: the
     * same primary key, and indexes of the same names and keys): names, key types and attribute types.
     */
    static String keySignature(TableDescriptor d) {
        StringBuilder s = new StringBuilder("table");
        keys(s, d, d.keySchema());
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            s.append(";gsi ").append(x.indexName());
            keys(s, d, x.keySchema());
        }
        for (IndexDescriptor x : d.localSecondaryIndexes()) {
            s.append(";lsi ").append(x.indexName());
            keys(s, d, x.keySchema());
        }
        return s.toString();
    }

    private static void keys(StringBuilder s, TableDescriptor d, List<KeySchemaElement> schema) {
        for (KeySchemaElement k : schema) {
            s.append(' ')
                    .append(k.attributeName())
                    .append('/')
                    .append(k.keyType().name());
            for (AttributeDefinition a : d.attributeDefinitions()) {
                if (a.attributeName().equals(k.attributeName())) {
                    s.append('/').append(a.attributeType().name());
                }
            }
        }
    }

    /** The checks of the API Reference for each table of the group; the messages are Kumiko's own. */
    private void checkJoinable(Table t, String keySignature) {
        TableDescriptor d = t.descriptor();
        if (!d.stream().enabled() || d.stream().viewType() != StreamViewType.NEW_AND_OLD_IMAGES) {
            throw DynamoException.validation("Table " + d.tableName()
                    + " must have DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES");
        }
        if (!keySignature(d).equals(keySignature)) {
            throw DynamoException.validation("Table " + d.tableName()
                    + " must have the same key schema and secondary indexes in every region of the global table");
        }
        try (Cursor c = store.scan(
                KeySpace.prefix(KeySpace.ITEMS, d.id()), KeySpace.prefix(KeySpace.ITEMS, d.id() + 1), false)) {
            if (c.next()) {
                throw DynamoException.validation("Table " + d.tableName() + " must be empty to join a global table");
            }
        }
    }

    /**
     * Ships t's changes from now on to each region of to; unless fresh (every table of a new group
     * is empty), this region also copies its items to them first.
     */
    private void startShipping(Table t, List<String> to, boolean fresh) {
        TableDescriptor d = t.descriptor();
        long next = log.latest(d);
        WriteBatch positions = new WriteBatch();
        if (store.get(ReplicationKeys.stamped(d.id())) == null) {
            positions.put(ReplicationKeys.stamped(d.id()), ReplicationKeys.encodeLong(next));
        }
        for (String r : to) {
            positions.put(ReplicationKeys.shipped(d.id(), r), ReplicationKeys.encodeLong(next));
            if (!fresh) {
                positions.put(ReplicationKeys.backfill(d.id(), r), ReplicationKeys.BACKFILL_NOT_STARTED);
            }
        }
        store.apply(positions);
    }

    private ReplicaSet legacySet(String name) {
        ReplicaSet set = registry.get(name);
        if (set == null || !set.legacy()) {
            throw new DynamoException(ErrorCode.GLOBAL_TABLE_NOT_FOUND, "Global table not found");
        }
        return set;
    }

    private Table table(String name) {
        Table t = catalog.get(name);
        if (t == null) {
            throw new DynamoException(ErrorCode.TABLE_NOT_FOUND, "Table not found: " + name);
        }
        return t;
    }
}
