package dev.kumiko.engine.throughput;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.index.IndexEntries;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which GSIs an item write will change, found before the write so that a GSI without capacity can
 * refuse it while nothing is written. Mirrors IndexUpdates: a GSI is written when the item has or
 * had an entry in it and the entry's key or projected attributes change.
 */
final class IndexWrites {
    private IndexWrites() {}

    static List<IndexDescriptor> changedGlobalIndexes(
            TableDescriptor t,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem) {
        List<IndexDescriptor> out = new ArrayList<>(0);
        for (IndexDescriptor x : t.globalSecondaryIndexes()) {
            if (changes(t, x, oldItem, newItem)) {
                out.add(x);
            }
        }
        return out;
    }

    private static boolean changes(
            TableDescriptor t,
            IndexDescriptor x,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem) {
        byte[] oldKey = oldItem == null ? null : IndexEntries.key(t, x, oldItem);
        byte[] newKey = newItem == null ? null : IndexEntries.key(t, x, newItem);
        if (oldKey == null || newKey == null || oldItem == null || newItem == null) {
            return oldKey != null || newKey != null; // a key is null exactly when its item is or has none
        }
        return !Arrays.equals(oldKey, newKey)
                || !IndexEntries.project(t, x, oldItem).equals(IndexEntries.project(t, x, newItem));
    }
}
