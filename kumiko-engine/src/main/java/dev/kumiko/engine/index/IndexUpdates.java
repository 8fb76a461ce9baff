package dev.kumiko.engine.index;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedEquality;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Adds to an item's write batch the index entries the write changes, so that item and index
 * entries commit in one storage transaction. An index whose key and projected attributes are
 * unchanged is not written at all (DynamoDB does not bill it either).
 */
public final class IndexUpdates {
    private IndexUpdates() {}

    /**
     * Plans every index of t for the change oldItem → newItem (either may be null). The items'
     * sizes and the new item's encoding are passed in because an ALL projection's entry is the
     * item itself.
     */
    public static List<IndexChange> plan(
            TableDescriptor t,
            @Nullable Map<String, AttributeValue> oldItem,
            long oldItemBytes,
            @Nullable Map<String, AttributeValue> newItem,
            long newItemBytes,
            byte @Nullable [] newItemEncoded,
            WriteBatch batch) {
        if (t.localSecondaryIndexes().isEmpty() && t.globalSecondaryIndexes().isEmpty()) {
            return List.of();
        }
        List<IndexChange> changes = new ArrayList<>(2);
        for (IndexDescriptor x : t.localSecondaryIndexes()) {
            planOne(t, x, oldItem, oldItemBytes, newItem, newItemBytes, newItemEncoded, batch, changes);
        }
        for (IndexDescriptor x : t.globalSecondaryIndexes()) {
            planOne(t, x, oldItem, oldItemBytes, newItem, newItemBytes, newItemEncoded, batch, changes);
        }
        return changes;
    }

    private static void planOne(
            TableDescriptor t,
            IndexDescriptor x,
            @Nullable Map<String, AttributeValue> oldItem,
            long oldItemBytes,
            @Nullable Map<String, AttributeValue> newItem,
            long newItemBytes,
            byte @Nullable [] newItemEncoded,
            WriteBatch batch,
            List<IndexChange> changes) {
        byte[] newKey = newItem == null ? null : IndexEntries.key(t, x, newItem);
        byte[] oldKey = oldKey(t, x, oldItem, newItem, newKey);
        if (oldKey == null && newKey == null) {
            return;
        }
        // A key comes only from an item, so an entry is null exactly when its key is.
        Map<String, AttributeValue> oldEntry =
                oldKey == null || oldItem == null ? null : IndexEntries.project(t, x, oldItem);
        Map<String, AttributeValue> newEntry =
                newKey == null || newItem == null ? null : IndexEntries.project(t, x, newItem);
        boolean sameKey = oldKey != null && newKey != null && (oldKey == newKey || Arrays.equals(oldKey, newKey));
        if (sameKey && oldEntry != null && newEntry != null && sameEntry(oldEntry, newEntry, newItem, newItemEncoded)) {
            return;
        }
        if (oldKey != null && !sameKey) {
            batch.delete(oldKey);
        }
        if (newKey != null && newEntry != null) {
            // An ALL projection's entry is the item itself, already encoded for the item's own put.
            batch.put(
                    newKey,
                    newEntry == newItem && newItemEncoded != null ? newItemEncoded : ItemCodec.encode(newEntry));
        }
        long oldBytes = oldEntry == null ? 0 : entryBytes(x, oldEntry, oldItemBytes);
        long newBytes = newEntry == null ? 0 : entryBytes(x, newEntry, newItemBytes);
        changes.add(new IndexChange(x, oldBytes, newBytes, sameKey));
    }

    /**
     * The old item's entry key in x. An item's own key never changes (old and new item are one
     * item), so when x's key attributes hold equal values in both, the old entry's key is the new
     * one: returned as is, without building it again or reading the table key out of the stored
     * bytes (most writes of an item leave its index keys alone). Equal values encode to equal keys:
     * equal numbers are equal however written, and the key encoding writes their canonical form.
     */
    private static byte @Nullable [] oldKey(
            TableDescriptor t,
            IndexDescriptor x,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem,
            byte @Nullable [] newKey) {
        if (oldItem == null) {
            return null;
        }
        if (newKey != null && newItem != null && sameKeyValues(x, oldItem, newItem)) {
            assert Arrays.equals(IndexEntries.key(t, x, oldItem), newKey);
            return newKey;
        }
        return IndexEntries.key(t, x, oldItem);
    }

    /**
     * Whether each of x's key attributes is present in both items with equal values. The old item
     * is mostly still in its stored bytes, which answer without decoding its attributes.
     */
    private static boolean sameKeyValues(
            IndexDescriptor x, Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem) {
        for (KeySchemaElement k : x.keySchema()) {
            String name = k.attributeName();
            AttributeValue after = newItem.get(name);
            if (after == null) {
                return false;
            }
            boolean same;
            if (oldItem instanceof EncodedItem stored) {
                same = stored.attributeEquals(name, after);
            } else {
                AttributeValue before = oldItem.get(name);
                same = before != null && before.equals(after);
            }
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether an entry under an unchanged key is unchanged too. An ALL projection's old entry is the
     * stored item: the bytes answer ({@link EncodedEquality}) without walking either item, and only
     * an undecided case compares maps. (An update's new item keeps most of the old one as stored
     * bytes, PatchedItem, and a map comparison would build its whole map.)
     */
    private static boolean sameEntry(
            Map<String, AttributeValue> oldEntry,
            Map<String, AttributeValue> newEntry,
            @Nullable Map<String, AttributeValue> newItem,
            byte @Nullable [] newItemEncoded) {
        if (newEntry == newItem && newItemEncoded != null && oldEntry instanceof EncodedItem stored) {
            EncodedEquality.Answer answer = EncodedEquality.compare(stored.encoded(), newItemEncoded);
            if (answer != EncodedEquality.Answer.UNKNOWN) {
                return answer == EncodedEquality.Answer.SAME;
            }
        }
        return oldEntry.equals(newEntry);
    }

    private static long entryBytes(IndexDescriptor x, Map<String, AttributeValue> entry, long itemBytes) {
        return IndexEntries.projectsAll(x) ? itemBytes : ItemSize.of(entry);
    }
}
