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

    /** Replaces oldItem (or nothing) with newItem (or nothing, a delete). */
    public void commit(Table table, byte[] storageKey, Map<String, AttributeValue> oldItem,
            Map<String, AttributeValue> newItem) {
        if (oldItem == null && newItem == null) {
            return;
        }
        WriteBatch batch = new WriteBatch();
        if (newItem == null) {
            batch.delete(storageKey);
        } else {
            batch.put(storageKey, ItemCodec.encode(newItem));
        }
        store.apply(batch);
        long items = (newItem == null ? 0 : 1) - (oldItem == null ? 0 : 1);
        long bytes = (newItem == null ? 0 : ItemSize.of(newItem)) - (oldItem == null ? 0 : ItemSize.of(oldItem));
        table.stats().add(items, bytes);
    }
}
