package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.partiql.PqRequests;
import dev.kumiko.partiql.PqResults;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: JSON in, the engine's PartiQL, JSON out. */
final class PartiqlProtocol {
    private PartiqlProtocol() {}

    static PqRequests.ExecuteStatement executeStatement(Map<String, Object> b) {
        return new PqRequests.ExecuteStatement(
                Fields.string(b, "Statement"), parameters(b), Fields.bool(b, "ConsistentRead"),
                Fields.string(b, "NextToken"), Fields.string(b, "ReturnConsumedCapacity"), Fields.longValue(b, "Limit"),
                Fields.string(b, "ReturnValuesOnConditionCheckFailure"));
    }

    static void executeStatement(JsonGenerator g, PqResults.ExecuteStatement r) throws IOException {
        items(g, "Items", r.items());
        if (r.nextToken() != null) {
            g.writeStringField("NextToken", r.nextToken());
        }
        if (r.consumedCapacity() != null) {
            Operations.consumedCapacity(g, r.consumedCapacity());
        }
        if (r.lastEvaluatedKey() != null) {
            g.writeFieldName("LastEvaluatedKey");
            JsonOut.item(g, r.lastEvaluatedKey());
        }
    }

    static PqRequests.BatchExecuteStatement batchExecuteStatement(Map<String, Object> b) {
        List<PqRequests.BatchStatement> statements = Fields.objects(b, "Statements",
                s -> s == null ? new PqRequests.BatchStatement(null, null, null, null)
                        : new PqRequests.BatchStatement(Fields.string(s, "Statement"), parameters(s),
                                Fields.bool(s, "ConsistentRead"),
                                Fields.string(s, "ReturnValuesOnConditionCheckFailure")));
        return new PqRequests.BatchExecuteStatement(statements, Fields.string(b, "ReturnConsumedCapacity"));
    }

    static void batchExecuteStatement(JsonGenerator g, PqResults.BatchExecuteStatement r) throws IOException {
        g.writeArrayFieldStart("Responses");
        for (PqResults.BatchEntry e : r.responses()) {
            batchEntry(g, e);
        }
        g.writeEndArray();
        Operations.consumedCapacities(g, r.consumedCapacity());
    }

    static PqRequests.ExecuteTransaction executeTransaction(Map<String, Object> b) {
        List<PqRequests.TransactStatement> statements = Fields.objects(b, "TransactStatements",
                s -> s == null ? new PqRequests.TransactStatement(null, null, null)
                        : new PqRequests.TransactStatement(Fields.string(s, "Statement"), parameters(s),
                                Fields.string(s, "ReturnValuesOnConditionCheckFailure")));
        return new PqRequests.ExecuteTransaction(statements,
                Fields.string(b, "ClientRequestToken"), Fields.string(b, "ReturnConsumedCapacity"));
    }

    static void executeTransaction(JsonGenerator g, PqResults.ExecuteTransaction r) throws IOException {
        g.writeArrayFieldStart("Responses");
        for (Map<String, AttributeValue> item : r.responses()) {
            g.writeStartObject();
            if (item != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, item);
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        Operations.consumedCapacities(g, r.consumedCapacity());
    }

    private static void batchEntry(JsonGenerator g, PqResults.BatchEntry e) throws IOException {
        g.writeStartObject();
        if (e.error() != null) {
            g.writeObjectFieldStart("Error");
            g.writeStringField("Code", e.error().code());
            if (e.error().message() != null) {
                g.writeStringField("Message", e.error().message());
            }
            if (e.error().item() != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, e.error().item());
            }
            g.writeEndObject();
        }
        if (e.tableName() != null) {
            g.writeStringField("TableName", e.tableName());
        }
        if (e.item() != null) {
            g.writeFieldName("Item");
            JsonOut.item(g, e.item());
        }
        g.writeEndObject();
    }

    private static void items(JsonGenerator g, String field, List<Map<String, AttributeValue>> items)
            throws IOException {
        g.writeArrayFieldStart(field);
        for (Map<String, AttributeValue> item : items) {
            JsonOut.item(g, item);
        }
        g.writeEndArray();
    }

    /** The Parameters list, each an AttributeValue as the wire carries it; null when absent. */
    private static List<AttributeValue> parameters(Map<String, Object> body) {
        List<Object> raw = Fields.list(body, "Parameters");
        if (raw == null) {
            return null;
        }
        List<AttributeValue> out = new ArrayList<>(raw.size());
        for (Object o : raw) {
            out.add(AttributeValues.decode(o, 0));
        }
        return out;
    }
}
