package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.EngineSettings;
import dev.kumiko.engine.index.IndexChange;
import dev.kumiko.engine.index.IndexUpdates;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.List;
import java.util.Map;

/**
 * The one write path: every change to an item goes through {@link #commit}, which builds a single
 * storage batch for the item and its index entries (and, as it arrives, its change record) and
 * updates the statistics. Callers hold the item's lock.
 */
public final class ItemWriter {
    private final Store store;
    private final EngineSettings settings;

    public ItemWriter(Store store, EngineSettings settings) {
        this.store = store;
        this.settings = settings;
    }

    /**
     * Replaces oldItem (or nothing) with newItem (or nothing, a delete). The caller has already
     * sized newItem (for the 400 KB check); the outcome carries oldItem's size, which billing needs
     * too, so each item is sized once per write. Fails with ItemCollectionSizeLimitExceeded, writing
     * nothing, when the write would grow an LSI table's item collection past the limit.
     */
    public WriteOutcome commit(Table table, byte[] storageKey, Map<String, AttributeValue> oldItem,
            Map<String, AttributeValue> newItem, long newItemBytes) {
        assert newItem == null ? newItemBytes == 0 : newItemBytes == ItemSize.of(newItem);
        if (oldItem == null && newItem == null) {
            return WriteOutcome.NOTHING;
        }
        TableDescriptor d = table.descriptor();
        long oldItemBytes = oldItem == null ? 0 : ItemSize.of(oldItem);
        WriteBatch batch = new WriteBatch();
        byte[] encoded = null;
        if (newItem == null) {
            batch.delete(storageKey);
        } else {
            encoded = ItemCodec.encode(newItem);
            batch.put(storageKey, encoded);
        }
        List<IndexChange> changes = IndexUpdates.plan(d, oldItem, oldItemBytes, newItem, newItemBytes, encoded, batch);
        long collectionDelta = newItemBytes - oldItemBytes + lsiBytesDelta(changes);
        byte[] collection = d.localSecondaryIndexes().isEmpty() ? null
                : ItemKey.partitionPrefix(d.id(), (newItem != null ? newItem : oldItem).get(d.hashKeyName()));
        if (collection != null) {
            checkCollectionLimit(table, collection, collectionDelta);
        }
        store.apply(batch);
        long items = (newItem == null ? 0 : 1) - (oldItem == null ? 0 : 1);
        table.stats().add(items, newItemBytes - oldItemBytes);
        for (IndexChange c : changes) {
            table.indexStats(c.index().id()).add(c.entriesDelta(), c.bytesDelta());
        }
        long collectionBytes = collection == null ? -1 : table.collections().add(collection, collectionDelta);
        return new WriteOutcome(oldItemBytes, changes, collectionBytes);
    }

    private static long lsiBytesDelta(List<IndexChange> changes) {
        long delta = 0;
        for (IndexChange c : changes) {
            if (!c.index().global()) {
                delta += c.bytesDelta();
            }
        }
        return delta;
    }

    /**
     * Concurrent writers to other items of one collection may each pass this check, so a
     * collection can overshoot the limit by what they write at once; DynamoDB's own check is an
     * estimate too.
     */
    private void checkCollectionLimit(Table table, byte[] collection, long deltaBytes) {
        if (deltaBytes > 0 && table.collections().bytes(collection) + deltaBytes > settings.itemCollectionBytesMax()) {
            // UNVERIFIED wording: the exception type is documented, its message is not.
            throw new DynamoException(ErrorCode.ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED,
                    "Item collection size limit exceeded");
        }
    }
}
