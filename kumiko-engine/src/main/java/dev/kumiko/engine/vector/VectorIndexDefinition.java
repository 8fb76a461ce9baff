package dev.kumiko.engine.vector;

import dev.kumiko.catalog.Projection;
import java.util.List;

/**
 * A vector index as declared by CreateTable.VectorIndexes or UpdateTable.VectorIndexUpdates.Create,
 * with its state: status is CREATING while a backfill runs (backfilling true), then ACTIVE.
 */
public record VectorIndexDefinition(
        String indexName,
        String vectorAttribute,
        int dimensions,
        VectorDistance distance,
        List<SearchSchemaElement> searchSchema,
        Projection projection,
        String status,
        boolean backfilling) {

    public static final String ACTIVE = "ACTIVE";
    public static final String CREATING = "CREATING";

    public VectorIndexDefinition {
        searchSchema = List.copyOf(searchSchema);
        assert dimensions >= 1;
    }

    public VectorIndexDefinition active() {
        return new VectorIndexDefinition(
                indexName, vectorAttribute, dimensions, distance, searchSchema, projection, ACTIVE, false);
    }

    public VectorIndexDefinition creating() {
        return new VectorIndexDefinition(
                indexName, vectorAttribute, dimensions, distance, searchSchema, projection, CREATING, true);
    }

    public boolean inSearchSchema(String attributeName) {
        for (SearchSchemaElement e : searchSchema) {
            if (e.attributeName().equals(attributeName)) {
                return true;
            }
        }
        return false;
    }
}
