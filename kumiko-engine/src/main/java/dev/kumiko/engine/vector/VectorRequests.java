package dev.kumiko.engine.vector;

import dev.kumiko.engine.control.CreateTableRequest.ProjectionInput;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The vector members of CreateTable and UpdateTable, and SearchVectors, typed; any member may be null. */
public final class VectorRequests {
    private VectorRequests() {}

    /** A VectorIndex (CreateTable) or CreateVectorIndexAction (UpdateTable). */
    public record IndexInput(
            @Nullable String indexName,
            @Nullable String vectorAttributeName,
            @Nullable Long dimensions,
            @Nullable String distanceFunction,
            @Nullable List<SchemaInput> searchSchema,
            @Nullable ProjectionInput projection) {}

    /** A SearchSchemaElement as sent. */
    public record SchemaInput(
            @Nullable String attributeName, @Nullable String type) {}

    /** One VectorIndexUpdates element: Create or Delete (the index name). */
    public record IndexUpdate(
            @Nullable IndexInput create, @Nullable String deleteIndexName, boolean hasDelete) {}

    public record SearchVectors(
            @Nullable String tableName,
            @Nullable String indexName,
            @Nullable List<AttributeValue> searchVector,
            @Nullable Integer topK,
            @Nullable String searchConditionExpression,
            @Nullable String projectionExpression,
            @Nullable Map<String, String> expressionAttributeNames,
            @Nullable Map<String, AttributeValue> expressionAttributeValues,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {}

    /** One result: the projected item and its score. */
    public record Result(Map<String, AttributeValue> item, double score) {}

    /**
     * SearchVectors' answer. capacityUnits is null when ReturnConsumedCapacity was NONE or absent;
     * searchRequestBytes is what ConsumedCapacity.VectorIndexes reports as VectorSearchRequestBytes.
     */
    public record SearchResult(
            List<Result> results,
            String tableName,
            String indexName,
            @Nullable Double capacityUnits,
            boolean withBreakdown,
            double searchRequestBytes) {}
}
