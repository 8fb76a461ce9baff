package dev.kumiko.engine.replication;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Applies a peer's changes to this region's replica, each with last writer wins: a change is
 * written only if its stamp is newer than the item's current version's, which is the larger of the
 * stored stamp and the newest local write not yet stamped. A change applied again (a shipment sent
 * twice after a crash) has the stamp it stored the first time and is skipped, so applying is
 * idempotent. An applied change goes through the normal write path (indexes, counters, the stream,
 * where its record has origin REPLICATION) with its stamp in the same commit.
 */
final class ChangeApplier {
    private final Catalog catalog;
    private final Store store;
    private final ItemWriter writer;
    private final Stamps stamps;

    ChangeApplier(Catalog catalog, Store store, ItemWriter writer, Stamps stamps) {
        this.catalog = catalog;
        this.store = store;
        this.writer = writer;
        this.stamps = stamps;
    }

    /** Applies changes in order; returns how many were written (the others lost to a newer version). */
    int apply(String tableName, List<ReplicatedChange> changes, String region) {
        Table t = catalog.get(tableName);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + tableName + " not found");
        }
        // Stamping the local records first keeps the unstamped tail, which each change looks at, short.
        stamps.catchUp(t.descriptor(), region);
        Stamps.Tail tail = stamps.tail(t.descriptor());
        int written = 0;
        for (ReplicatedChange c : changes) {
            if (applyOne(t, c, region, tail)) {
                written++;
            }
        }
        return written;
    }

    private boolean applyOne(Table t, ReplicatedChange c, String region, Stamps.Tail tail) {
        byte[] itemKey = Stamps.itemKey(t.descriptor(), c.keys());
        byte[] stampKey = ReplicationKeys.stamp(itemKey);
        return Retried.run(() -> {
            try (Transaction txn = store.begin(new byte[][] {itemKey, stampKey}, TransactionMode.WAIT)) {
                byte[] old = txn.get(itemKey);
                Stamp current =
                        newer(Stamps.read(txn, itemKey), stamps.newestUnstamped(t.descriptor(), tail, itemKey, region));
                if (current != null && !c.stamp().isNewerThan(current)) {
                    return false;
                }
                Map<String, AttributeValue> oldItem = old == null ? null : EncodedItem.of(old);
                Map<String, AttributeValue> newItem = c.newImage();
                long newBytes = newItem == null ? 0 : ItemSize.of(newItem);
                byte[] stamp = c.stamp().encode();
                writer.commitAll(
                        txn,
                        List.of(new ItemWriter.Change(t, itemKey, oldItem, newItem, newBytes)),
                        ChangeOrigin.REPLICATION,
                        (outcomes, batch) -> batch.put(stampKey, stamp));
                return true;
            }
        });
    }

    private static @Nullable Stamp newer(@Nullable Stamp a, @Nullable Stamp b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isNewerThan(b) ? a : b;
    }
}
