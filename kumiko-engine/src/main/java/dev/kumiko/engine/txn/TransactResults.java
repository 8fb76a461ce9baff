package dev.kumiko.engine.txn;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The answers of TransactWriteItems and TransactGetItems; absent members are null. */
public final class TransactResults {
    private TransactResults() {}

    public record TransactWrite(
            @Nullable List<ConsumedCapacity> consumedCapacity,
            @Nullable Map<String, List<ItemCollectionMetrics>> itemCollectionMetrics) {}

    /** One entry per Get in request order; an entry is null when the item does not exist. */
    public record TransactGet(
            List<Map<String, AttributeValue>> responses,
            @Nullable List<ConsumedCapacity> consumedCapacity) {}
}
