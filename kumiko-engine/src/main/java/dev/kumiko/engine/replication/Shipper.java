package dev.kumiko.engine.replication;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The background task that ships this region's own changes to its peers, under the lease
 * {@code replication-ship} (one engine per region runs it). Each step, for each global table and
 * each peer replica: a CREATING replica gets the next page of the table's items (the backfill, which
 * resumes after the last key sent); an ACTIVE one gets the next page of the change log's local
 * records, stamped, from the position saved for it. A position moves only after the peer
 * acknowledged the page, so a crash sends a page again, which the peer applies idempotently. A peer
 * that does not answer keeps its position; its changes wait in the log.
 */
final class Shipper {
    private final Catalog catalog;
    private final Store store;
    private final ChangeLog log;
    private final Stamps stamps;
    private final Registry registry;
    private final Clock clock;
    private final Lease lease;
    /** The last shipment's lag per "table/region": the age of its newest record when the peer acknowledged it. */
    private final Map<String, Long> latencyMillis = new ConcurrentHashMap<>();

    Shipper(Catalog catalog, Store store, ChangeLog log, Stamps stamps, Registry registry, Clock clock, Lease lease) {
        this.catalog = catalog;
        this.store = store;
        this.log = log;
        this.stamps = stamps;
        this.registry = registry;
        this.clock = clock;
        this.lease = lease;
    }

    /** Gives the lease up (at close), so that the next engine ships without waiting for it to expire. */
    void release() {
        lease.release();
    }

    Map<String, Long> latencyMillis() {
        return Map.copyOf(latencyMillis);
    }

    /** One step over every global table; true when some page was shipped (the caller steps again at once). */
    boolean step(String region, Map<String, PeerLink> peers) {
        if (peers.isEmpty() || !lease.hold()) {
            return false;
        }
        boolean shipped = false;
        for (ReplicaSet set : registry.all()) {
            Table t = catalog.get(set.tableName());
            if (t == null || !set.holds(region)) {
                continue;
            }
            for (String peer : set.peersOf(region)) {
                PeerLink link = peers.get(peer);
                ReplicaSet.Replica replica = set.replica(peer);
                if (link == null || replica == null) {
                    continue; // a region this server was not told about: its replica waits
                }
                try {
                    // Only the region that created the replica copies the items (it holds the backfill's
                    // position); every region ships its changes to it from the start.
                    boolean backfills = replica.status() == ReplicaStatus.CREATING
                            && store.get(ReplicationKeys.backfill(t.descriptor().id(), peer)) != null;
                    shipped |= backfills
                            ? backfillPage(t, set, peer, link, region, peers)
                            : changesPage(t.descriptor(), peer, link, region);
                } catch (PeerLink.Unreachable e) {
                    // The position stays; the next step tries again.
                }
            }
        }
        return shipped;
    }

    /** Sends the next page of local records to peer; true if there was one. */
    private boolean changesPage(TableDescriptor d, String peer, PeerLink link, String region) {
        stamps.catchUp(d, region);
        byte[] positionKey = ReplicationKeys.shipped(d.id(), peer);
        long from = ReplicationKeys.decodeLong(store.get(positionKey), 1);
        long to = log.visibleBound(d);
        if (from >= to) {
            return false;
        }
        ChangeLog.Page page = log.read(d.id(), from, to, ReplicatedChange.PER_SHIPMENT_MAX, 1L << 20);
        List<ReplicatedChange> changes = new ArrayList<>(page.records().size());
        long next = from;
        long newestMillis = 0;
        for (ChangeRecord r : page.records()) {
            next = r.sequence() + 1;
            if (r.origin() == ChangeOrigin.REPLICATION) {
                continue; // a peer's write: its origin ships it to every region itself
            }
            changes.add(new ReplicatedChange(r.keys(), r.newImage(), Stamps.stampOf(r, region)));
            newestMillis = Math.max(newestMillis, r.createdMillis());
        }
        if (page.exhausted() && page.records().isEmpty()) {
            next = to;
        }
        if (!changes.isEmpty()) {
            link.apply(d.tableName(), changes);
            latencyMillis.put(d.tableName() + "/" + peer, Math.max(0, clock.nowMillis() - newestMillis));
        }
        store.apply(new WriteBatch().put(positionKey, ReplicationKeys.encodeLong(next)));
        return true;
    }

    /**
     * Sends the next page of the table's items to a new replica, each with its stamp (or the stamp of
     * a write older than any other, for an item never written since the table became global). When
     * the scan is done the replica is ACTIVE and every region hears so.
     */
    private boolean backfillPage(
            Table t, ReplicaSet set, String peer, PeerLink link, String region, Map<String, PeerLink> peers) {
        TableDescriptor d = t.descriptor();
        byte[] positionKey = ReplicationKeys.backfill(d.id(), peer);
        byte[] after = store.get(positionKey);
        byte[] start = after == null || after.length == 1
                ? KeySpace.prefix(KeySpace.ITEMS, d.id()) // the marker: not started
                : successor(after);
        List<ReplicatedChange> changes = new ArrayList<>();
        byte[] last = null;
        try (Cursor c = store.scan(start, KeySpace.prefix(KeySpace.ITEMS, d.id() + 1), false)) {
            while (changes.size() < ReplicatedChange.PER_SHIPMENT_MAX && c.next()) {
                Map<String, AttributeValue> item = ItemCodec.decode(c.value());
                Stamp s = stamps.read(c.key());
                changes.add(new ReplicatedChange(keysOf(d, item), item, s == null ? Stamp.before(region) : s));
                last = c.key();
            }
        }
        if (last == null) {
            ReplicaSet active = registry.update(set.tableName(), s -> s.with(peer, ReplicaStatus.ACTIVE));
            if (active != null) {
                for (String other : active.peersOf(region)) {
                    PeerLink l = peers.get(other);
                    if (l != null) {
                        l.publish(active);
                    }
                }
            }
            store.apply(new WriteBatch().delete(positionKey));
            return true;
        }
        link.apply(d.tableName(), changes);
        store.apply(new WriteBatch().put(positionKey, last));
        return true;
    }

    private static Map<String, AttributeValue> keysOf(TableDescriptor d, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>(4);
        keys.put(d.hashKeyName(), d.hashKeyOf(item));
        String range = d.rangeKeyName();
        if (range != null) {
            AttributeValue v = item.get(range);
            if (v != null) {
                keys.put(range, v);
            }
        }
        return keys;
    }

    private static byte[] successor(byte[] key) {
        return java.util.Arrays.copyOf(key, key.length + 1); // the key and 0x00: the smallest key after it
    }
}
