package dev.kumiko.engine.item;

import dev.kumiko.engine.index.IndexChange;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one committed item write did: the old item's size (billing needs it), the index entries it
 * changed, for a table with LSIs the item collection's size afterwards (else -1), and the new item
 * as the store holds it (item-codec form; null for a delete), which an UpdateItem's ALL_NEW answer
 * is written from.
 */
public record WriteOutcome(
        long oldItemBytes, List<IndexChange> indexChanges, long collectionBytes, byte @Nullable [] storedNewItem) {
    public static final WriteOutcome NOTHING = new WriteOutcome(0, List.of(), -1, null);
}
