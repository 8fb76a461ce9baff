package dev.kumiko.engine.txn;

import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import java.util.List;
import java.util.Map;

/**
 * What a committed TransactWriteItems reports, kept per ClientRequestToken for replays: write
 * units and item collection metrics per table, in the order the tables first appear.
 */
record Committed(
        Map<String, CapacityTally> writeUnits, Map<String, List<ItemCollectionMetrics>> itemCollectionMetrics) {}
