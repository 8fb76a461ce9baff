package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.Map;

/**
 * The one write path: every change to an item goes through {@link #commit}, which builds a single
 * storage batch for the item (and, as they arrive, its index entries and change record) and
 * updates the table's statistics. Callers hold the item's lock.
 */
public final class ItemWriter {
    private final Store store;

    public ItemWriter(Store store) {
        this.store = store;
    }

    /**
     * Replaces oldItem (or nothing) with newItem (or nothing, a delete). The caller has already
     * sized newItem (for the 400 KB check); returns oldItem's size, which billing needs too, so
     * each item is sized once per write.
     */
    public long commit(Table table, byte[] storageKey, Map<String, AttributeValue> oldItem,
            Map<String, AttributeValue> newItem, long newItemBytes) {
        assert newItem == null ? newItemBytes == 0 : newItemBytes == ItemSize.of(newItem);
        long oldItemBytes = oldItem == null ? 0 : ItemSize.of(oldItem);
        if (oldItem == null && newItem == null) {
            return 0;
        }
        WriteBatch batch = new WriteBatch();
        if (newItem == null) {
            batch.delete(storageKey);
        } else {
            batch.put(storageKey, ItemCodec.encode(newItem));
        }
        store.apply(batch);
        long items = (newItem == null ? 0 : 1) - (oldItem == null ? 0 : 1);
        table.stats().add(items, newItemBytes - oldItemBytes);
        return oldItemBytes;
    }
}
