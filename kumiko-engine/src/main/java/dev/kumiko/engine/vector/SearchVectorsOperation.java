package dev.kumiko.engine.vector;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * SearchVectors: checks the request, finds the nearest items in the index (the inline filter
 * applied to the index's copy of their SearchSchema attributes), reads them from the table and
 * projects them. Reads are eventually consistent, as DynamoDB's vector indexes are.
 */
final class SearchVectorsOperation {
    /** TopK's range. UNVERIFIED: the quota's maximum could not be read; 100 assumed. */
    static final int TOP_K_MAX = 100;
    /** The response limit (Developer Guide: "SearchVectors responses are limited to 16 MB"). */
    static final long RESPONSE_BYTES_MAX = 16L * 1024 * 1024;

    private final Catalog catalog;
    private final Store store;
    private final VectorIndexes indexes;

    SearchVectorsOperation(Catalog catalog, Store store, VectorIndexes indexes) {
        this.catalog = catalog;
        this.store = store;
        this.indexes = indexes;
    }

    VectorRequests.SearchResult run(VectorRequests.SearchVectors r) {
        requiredMembers(r);
        int topK = Objects.requireNonNull(r.topK());
        RequestExpressions expressions = RequestExpressions.builder()
                .searchConditionExpression(r.searchConditionExpression())
                .projectionExpression(r.projectionExpression())
                .expressionAttributeNames(r.expressionAttributeNames())
                .expressionAttributeValues(r.expressionAttributeValues())
                .build();
        String tableName = TableNames.resolve(r.tableName(), "tableName");
        Table table = catalog.get(tableName);
        if (table == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        TableDescriptor d = table.descriptor();
        String indexName = Objects.requireNonNull(r.indexName());
        LiveVectorIndex index = indexes.find(d.id(), indexName);
        if (index == null) {
            // Query's wording for an index the table does not have (verified there).
            throw DynamoException.validation("The table does not have the specified index: " + indexName);
        }
        VectorIndexDefinition def = index.definition();
        if (!def.status().equals(VectorIndexDefinition.ACTIVE)) {
            // API Reference: "The index must be in the ACTIVE state." Wording UNVERIFIED.
            throw DynamoException.validation(
                    "The vector index " + indexName + " is not ACTIVE; its status is " + def.status());
        }
        float[] query = searchVector(Objects.requireNonNull(r.searchVector()), def);
        checkFilterNames(expressions, def);
        index.awaitLoaded();
        List<LiveVectorIndex.Found> found =
                index.search(query, topK, expressions.hasFilter() ? expressions::testFilter : x -> true);
        return answer(r, d, def, expressions, found);
    }

    private static void requiredMembers(VectorRequests.SearchVectors r) {
        List<String> violations = new ArrayList<>();
        if (r.indexName() == null) {
            violations.add("Value null at 'indexName' failed to satisfy constraint: Member must not be null");
        } else if (r.indexName().length() < 3 || r.indexName().length() > 255) {
            violations.add(
                    "Value '" + r.indexName() + "' at 'indexName' failed to satisfy constraint: Member must have "
                            + (r.indexName().length() < 3
                                    ? "length greater than or equal to 3"
                                    : "length less than or equal to 255"));
        }
        if (r.searchVector() == null) {
            violations.add("Value null at 'searchVector' failed to satisfy constraint: Member must not be null");
        }
        if (r.topK() == null) {
            violations.add("Value null at 'topK' failed to satisfy constraint: Member must not be null");
        } else if (r.topK() < 1) {
            violations.add("Value '" + r.topK() + "' at 'topK' failed to satisfy constraint: "
                    + "Member must have value greater than or equal to 1");
        } else if (r.topK() > TOP_K_MAX) {
            violations.add("Value '" + r.topK() + "' at 'topK' failed to satisfy constraint: "
                    + "Member must have value less than or equal to " + TOP_K_MAX);
        }
        if (r.tableName() == null) {
            violations.add("Value null at 'tableName' failed to satisfy constraint: Member must not be null");
        }
        if (!violations.isEmpty()) {
            throw DynamoException.validation(violations.size() + " validation error"
                    + (violations.size() == 1 ? "" : "s") + " detected: " + String.join("; ", violations));
        }
    }

    /** The search vector at f32 precision; its elements must be numbers, as many as the index's dimensions. */
    static float[] searchVector(List<AttributeValue> values, VectorIndexDefinition def) {
        for (AttributeValue v : values) {
            if (!(v instanceof AttributeValue.N)) {
                // Wording UNVERIFIED: the API Reference says each element is a 32-bit float.
                throw DynamoException.validation("SearchVector must contain only numbers (N)");
            }
        }
        if (values.size() != def.dimensions()) {
            // Wording UNVERIFIED.
            throw DynamoException.validation("SearchVector has " + values.size() + " dimensions, but vector index "
                    + def.indexName() + " has " + def.dimensions());
        }
        float[] q = VectorValues.floats(values);
        if (q == null) {
            // Wording UNVERIFIED: a number beyond f32's range cannot be searched for.
            throw DynamoException.validation(
                    "SearchVector elements must be within the range of a 32-bit floating point number");
        }
        return q;
    }

    /** A SearchConditionExpression names top-level attributes of the index's SearchSchema only. */
    private static void checkFilterNames(RequestExpressions e, VectorIndexDefinition def) {
        if (!e.hasFilter()) {
            return;
        }
        if (!e.nestedPathTopLevelNames().isEmpty()) {
            // Developer Guide: "SearchConditionExpression supports top-level attributes only." Wording UNVERIFIED.
            throw DynamoException.validation(
                    "Invalid SearchConditionExpression: SearchConditionExpression supports top-level attributes only");
        }
        for (String name : e.filterTopLevelNames()) {
            if (!def.inSearchSchema(name)) {
                // Wording UNVERIFIED.
                throw DynamoException.validation("Invalid SearchConditionExpression: Attribute " + name
                        + " is not in the SearchSchema of vector index " + def.indexName());
            }
        }
    }

    private VectorRequests.SearchResult answer(
            VectorRequests.SearchVectors r,
            TableDescriptor d,
            VectorIndexDefinition def,
            RequestExpressions expressions,
            List<LiveVectorIndex.Found> found) {
        byte[][] keys = new byte[found.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = found.get(i).storageKey();
        }
        byte[][] stored = keys.length == 0 ? new byte[0][] : store.getAll(keys);
        List<VectorRequests.Result> results = new ArrayList<>(found.size());
        long responseBytes = 0;
        double units = 0;
        for (int i = 0; i < keys.length; i++) {
            if (stored[i] == null) {
                continue; // deleted since the index saw it
            }
            // Only ALL needs every attribute decoded; the other projections read a few by name from
            // the stored bytes (a vector of 768 numbers is never decoded to be dropped).
            Map<String, AttributeValue> whole = def.projection().projectionType() == ProjectionType.ALL
                    ? ItemCodec.decode(stored[i])
                    : EncodedItem.of(stored[i]);
            Map<String, AttributeValue> entry = indexProjection(d, def, whole);
            long entryBytes = ItemSize.of(entry);
            Map<String, AttributeValue> item = expressions.project(entry);
            responseBytes += entryBytes;
            if (responseBytes > RESPONSE_BYTES_MAX) {
                break; // the response's 16 MB: no pagination, the nearest that fit are answered
            }
            units += CapacityUnits.read(entryBytes, false);
            results.add(new VectorRequests.Result(item, found.get(i).score()));
        }
        ReturnConsumedCapacity mode = r.returnConsumedCapacity();
        boolean report = mode != null && mode != ReturnConsumedCapacity.NONE;
        return new VectorRequests.SearchResult(
                results,
                d.tableName(),
                def.indexName(),
                report ? Math.max(0.5, units) : null,
                mode == ReturnConsumedCapacity.INDEXES,
                4.0 * def.dimensions());
    }

    /**
     * The item as the index holds it: every attribute for ALL; otherwise the table's keys, the
     * SearchSchema attributes and, for INCLUDE, the listed ones. The vector itself is not a key:
     * KEYS_ONLY leaves it out (the Developer Guide: KEYS_ONLY "stores the least data").
     */
    static Map<String, AttributeValue> indexProjection(
            TableDescriptor d, VectorIndexDefinition def, Map<String, AttributeValue> item) {
        if (def.projection().projectionType() == ProjectionType.ALL) {
            return item;
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        copy(item, d.hashKeyName(), out);
        String range = d.rangeKeyName();
        if (range != null) {
            copy(item, range, out);
        }
        def.searchSchema().forEach(e -> copy(item, e.attributeName(), out));
        List<String> include = def.projection().nonKeyAttributes();
        if (include != null) {
            include.forEach(n -> copy(item, n, out));
        }
        return out;
    }

    private static void copy(Map<String, AttributeValue> from, String name, Map<String, AttributeValue> to) {
        @Nullable AttributeValue v = from.get(name);
        if (v != null) {
            to.put(name, v);
        }
    }
}
