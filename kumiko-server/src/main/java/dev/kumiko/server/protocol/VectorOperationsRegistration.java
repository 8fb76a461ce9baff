package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.vector.SearchSchemaElement;
import dev.kumiko.engine.vector.VectorIndexDefinition;
import dev.kumiko.engine.vector.VectorIndexes;
import dev.kumiko.engine.vector.VectorRequests;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.List;

/**
 * SearchVectors' registration, and the writing of vector indexes into table descriptions
 * (CreateTable, UpdateTable and DescribeTable answer them under VectorIndexes).
 */
final class VectorOperationsRegistration {
    static final List<String> NAMES = List.of("SearchVectors");

    private VectorOperationsRegistration() {}

    static Operation<?, ?> operation(String name) {
        if (!name.equals("SearchVectors")) {
            throw new IllegalArgumentException("not a vector operation: " + name);
        }
        return dynamodb(
                name,
                VectorRequestReader::searchVectors,
                (e, r, c) -> e.vectors().searchVectors(r),
                (g, t, c) -> searchResult(g, t),
                (r, f) -> ResourceChecks.tableIndex("SearchVectors", r.tableName(), r.indexName(), f));
    }

    /** A table description and the table's vector indexes, as one answer. */
    record Described(TableDescription table, List<VectorIndexes.Described> vectorIndexes) {}

    static void table(JsonGenerator g, String field, Described d) throws IOException {
        g.writeFieldName(field);
        TableDescriptionWriter.write(g, d.table(), null, "", out -> vectorIndexes(out, d.table(), d.vectorIndexes()));
    }

    /** The table's VectorIndexes member, written into its description (none when it has none). */
    static void vectorIndexes(JsonGenerator g, TableDescription table, List<VectorIndexes.Described> indexes)
            throws IOException {
        Described d = new Described(table, indexes);
        if (d.vectorIndexes().isEmpty() || "DELETING".equals(d.table().tableStatus())) {
            return;
        }
        g.writeArrayFieldStart("VectorIndexes");
        for (VectorIndexes.Described x : d.vectorIndexes()) {
            VectorIndexDefinition def = x.definition();
            g.writeStartObject();
            g.writeStringField("IndexName", def.indexName());
            g.writeObjectFieldStart("VectorAttribute");
            g.writeStringField("AttributeName", def.vectorAttribute());
            g.writeEndObject();
            g.writeNumberField("Dimensions", def.dimensions());
            g.writeStringField("DistanceFunction", def.distance().name());
            if (!def.searchSchema().isEmpty()) {
                g.writeArrayFieldStart("SearchSchema");
                for (SearchSchemaElement e : def.searchSchema()) {
                    g.writeStartObject();
                    g.writeStringField("AttributeName", e.attributeName());
                    g.writeStringField("SearchSchemaElementType", e.type().name());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeObjectFieldStart("Projection");
            g.writeStringField(
                    "ProjectionType", def.projection().projectionType().name());
            if (def.projection().nonKeyAttributes() != null) {
                JsonOut.stringArray(g, "NonKeyAttributes", def.projection().nonKeyAttributes());
            }
            g.writeEndObject();
            g.writeStringField("IndexStatus", def.status());
            if (def.backfilling()) {
                g.writeBooleanField("Backfilling", true);
            }
            g.writeNumberField("IndexSizeBytes", x.sizeBytes());
            g.writeNumberField("ItemCount", x.itemCount());
            g.writeStringField("IndexArn", d.table().tableArn() + "/index/" + def.indexName());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void searchResult(JsonGenerator g, VectorRequests.SearchResult r) throws IOException {
        g.writeArrayFieldStart("SearchResults");
        for (VectorRequests.Result x : r.results()) {
            g.writeStartObject();
            g.writeFieldName("Item");
            JsonOut.item(g, x.item());
            g.writeNumberField("Score", x.score());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (r.capacityUnits() != null) {
            // SearchVectors' ConsumedCapacity is a VectorCapacity (the SDK's model): the search's
            // request bytes only. How DynamoDB counts them is not documented; Kumiko reports the
            // search vector's f32 bytes (4 per dimension).
            g.writeObjectFieldStart("ConsumedCapacity");
            g.writeNumberField("VectorSearchRequestBytes", r.searchRequestBytes());
            g.writeEndObject();
        }
    }
}
