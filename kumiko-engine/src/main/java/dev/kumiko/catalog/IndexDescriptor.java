package dev.kumiko.catalog;

import java.util.List;

/**
 * A local or global secondary index. {@code id} names its key range in the store; throughput is
 * {@link Throughput#ZERO} for LSIs and on-demand GSIs.
 */
public record IndexDescriptor(
        int id,
        String indexName,
        boolean global,
        List<KeySchemaElement> keySchema,
        Projection projection,
        Throughput throughput,
        String indexStatus) {

    public String hashKeyName() {
        return keySchema.get(0).attributeName();
    }

    public String rangeKeyName() {
        return keySchema.size() > 1 ? keySchema.get(1).attributeName() : null;
    }
}
