package dev.kumiko.engine.replication;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The stamps of a replicated table's items: which write made each item's current version. A write
 * that arrives from a peer stores its stamp with the item, in the item's own commit
 * ({@link ChangeApplier}). A local write commits no stamp (the write path stays as it is); its stamp
 * is its change-log record's time, this region and its sequence number, and it is copied into the
 * stamps from the log later ({@link #catchUp}). Until then the record itself is the stamp: the
 * applier looks at the records past the stamped position ({@link #newestUnstamped}), so a local write
 * is never overlooked, whether stamped yet or not.
 */
final class Stamps {
    /** Records read per page while stamping or looking at the unstamped tail. */
    private static final int PAGE_RECORDS = 256;

    private final Store store;
    private final ChangeLog log;

    Stamps(Store store, ChangeLog log) {
        this.store = store;
        this.log = log;
    }

    static byte[] itemKey(TableDescriptor d, Map<String, AttributeValue> keys) {
        String range = d.rangeKeyName();
        return ItemKey.of(d.id(), d.hashKeyOf(keys), range == null ? null : keys.get(range));
    }

    /** Where stamping resumes: records below it are stamped. Starts at the log's end when a table is made global. */
    long stampedBelow(int tableId) {
        return ReplicationKeys.decodeLong(store.get(ReplicationKeys.stamped(tableId)), 1);
    }

    /** Marks the records of a table that is made global now as needing no stamp: they were written before. */
    void startAt(int tableId, long sequence) {
        store.apply(new WriteBatch().put(ReplicationKeys.stamped(tableId), ReplicationKeys.encodeLong(sequence)));
    }

    /**
     * Copies the stamps of the table's local records, from the stamped position to the final ones,
     * into the stamps, each kept only if newer than what is stored. Idempotent: two engines (or the
     * shipper and the applier) running it at once store the same stamps.
     */
    void catchUp(TableDescriptor d, String region) {
        long from = stampedBelow(d.id());
        long to = log.visibleBound(d);
        while (from < to) {
            ChangeLog.Page page = log.read(d.id(), from, to, PAGE_RECORDS, Long.MAX_VALUE);
            for (ChangeRecord r : page.records()) {
                if (r.origin() != ChangeOrigin.REPLICATION) {
                    raise(itemKey(d, r.keys()), stampOf(r, region));
                }
                from = r.sequence() + 1;
            }
            if (page.exhausted()) {
                from = to;
            }
            savePosition(d.id(), from);
        }
    }

    static Stamp stampOf(ChangeRecord r, String region) {
        return new Stamp(Math.max(0, r.createdMillis()), region, r.sequence());
    }

    /**
     * The local records past the stamped position as one shipment's applier has read them: each
     * record is decoded once per shipment, not once per change. A read starts where the previous
     * one left records final (the change log's visible bound before it), so a local record that
     * took its number earlier but committed later is read too.
     */
    static final class Tail {
        private long from;
        private final Map<java.nio.ByteBuffer, Stamp> newest = new java.util.HashMap<>();

        private Tail(long from) {
            this.from = from;
        }
    }

    Tail tail(TableDescriptor d) {
        return new Tail(stampedBelow(d.id()));
    }

    /** The newest stamp of a local record of this item past the stamped position, or null. */
    @Nullable
    Stamp newestUnstamped(TableDescriptor d, Tail tail, byte[] itemKey, String region) {
        long finalBelow = log.visibleBound(d);
        long from = tail.from;
        while (true) {
            // Up to the log's end, not the visible bound: a record above an unfinished one is committed too.
            ChangeLog.Page page = log.read(d.id(), from, Long.MAX_VALUE, PAGE_RECORDS, Long.MAX_VALUE);
            for (ChangeRecord r : page.records()) {
                if (r.origin() != ChangeOrigin.REPLICATION) {
                    tail.newest.merge(
                            java.nio.ByteBuffer.wrap(itemKey(d, r.keys())),
                            stampOf(r, region),
                            (a, b) -> a.isNewerThan(b) ? a : b);
                }
                from = r.sequence() + 1;
            }
            if (page.exhausted()) {
                break;
            }
        }
        tail.from = Math.max(tail.from, finalBelow);
        return tail.newest.get(java.nio.ByteBuffer.wrap(itemKey));
    }

    static @Nullable Stamp read(Transaction txn, byte[] itemKey) {
        byte[] bytes = txn.get(ReplicationKeys.stamp(itemKey));
        return bytes == null ? null : Stamp.decode(bytes);
    }

    @Nullable
    Stamp read(byte[] itemKey) {
        byte[] bytes = store.get(ReplicationKeys.stamp(itemKey));
        return bytes == null ? null : Stamp.decode(bytes);
    }

    /** Stores s as the item's stamp unless a newer one is there. */
    private void raise(byte[] itemKey, Stamp s) {
        byte[] key = ReplicationKeys.stamp(itemKey);
        Retried.run(() -> {
            try (Transaction txn = store.begin(key)) {
                byte[] current = txn.get(key);
                if (current == null || s.isNewerThan(Stamp.decode(current))) {
                    txn.commit(new WriteBatch().put(key, s.encode()));
                }
            }
            return Boolean.TRUE;
        });
    }

    /** Raises the stamped position to at least next (never lowers it: another stamper may be ahead). */
    private void savePosition(int tableId, long next) {
        byte[] key = ReplicationKeys.stamped(tableId);
        Retried.run(() -> {
            try (Transaction txn = store.begin(key)) {
                if (ReplicationKeys.decodeLong(txn.get(key), 1) < next) {
                    txn.commit(new WriteBatch().put(key, ReplicationKeys.encodeLong(next)));
                }
            }
            return Boolean.TRUE;
        });
    }
}
