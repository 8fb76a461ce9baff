package dev.kumiko.catalog;

import dev.kumiko.model.KeyType;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A local or global secondary index. {@code id} names its key range in the store; throughput is
 * {@link Throughput#ZERO} for LSIs and on-demand GSIs. A GSI key may have up to four HASH and four
 * RANGE attributes (multi-attribute keys), HASH elements first; an LSI has exactly one of each.
 */
public record IndexDescriptor(
        int id,
        String indexName,
        boolean global,
        List<KeySchemaElement> keySchema,
        Projection projection,
        Throughput throughput,
        String indexStatus) {

    public static final String ACTIVE = "ACTIVE";
    public static final String CREATING = "CREATING";
    /** DynamoDB's limit on attributes in each of a multi-attribute key's two parts. */
    public static final int KEY_ATTRIBUTES_PER_PART_MAX = 4;

    public String hashKeyName() {
        return keySchema.get(0).attributeName();
    }

    /** The single sort key's name, or null; multi-attribute sort keys use {@link #rangeKeyNames}. */
    public @Nullable String rangeKeyName() {
        List<String> range = rangeKeyNames();
        return range.isEmpty() ? null : range.get(0);
    }

    public List<String> hashKeyNames() {
        return names(KeyType.HASH);
    }

    public List<String> rangeKeyNames() {
        return names(KeyType.RANGE);
    }

    /** Every key attribute, HASH attributes first, in key-schema order. */
    public List<String> keyNames() {
        List<String> out = new ArrayList<>(keySchema.size());
        keySchema.forEach(k -> out.add(k.attributeName()));
        return out;
    }

    public boolean isKeyAttribute(String name) {
        for (KeySchemaElement k : keySchema) {
            if (k.attributeName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Readable once backfilled: CREATING indexes are written to but not yet queryable. */
    public boolean isReadable() {
        return ACTIVE.equals(indexStatus);
    }

    public IndexDescriptor withStatus(String status) {
        return new IndexDescriptor(id, indexName, global, keySchema, projection, throughput, status);
    }

    public IndexDescriptor withThroughput(Throughput t) {
        return new IndexDescriptor(id, indexName, global, keySchema, projection, t, indexStatus);
    }

    private List<String> names(KeyType type) {
        List<String> out = new ArrayList<>(2);
        for (KeySchemaElement k : keySchema) {
            if (k.keyType() == type) {
                out.add(k.attributeName());
            }
        }
        return out;
    }
}
