package dev.kumiko.engine.item;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * ReturnItemCollectionMetrics=SIZE for a table with LSIs: the collection's partition key and
 * DynamoDB's estimate range in GB, given as the whole gigabytes around the measured size.
 */
public record ItemCollectionMetrics(Map<String, AttributeValue> itemCollectionKey, double lowerGb, double upperGb) {
    private static final double BYTES_PER_GB = 1024.0 * 1024 * 1024;

    /** The metrics to return, or null when not asked for or the table has no LSIs. */
    public static @Nullable ItemCollectionMetrics of(
            @Nullable ReturnItemCollectionMetrics mode,
            TableDescriptor d,
            AttributeValue partitionKey,
            long collectionBytes) {
        if (mode != ReturnItemCollectionMetrics.SIZE || collectionBytes < 0) {
            return null;
        }
        double lower = Math.floor(collectionBytes / BYTES_PER_GB);
        return new ItemCollectionMetrics(Map.of(d.hashKeyName(), partitionKey), lower, lower + 1);
    }
}
