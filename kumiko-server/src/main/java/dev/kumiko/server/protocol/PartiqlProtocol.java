package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.Engine;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.partiql.PqOperations;
import dev.kumiko.partiql.PqRequests;
import dev.kumiko.partiql.PqResults;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: JSON in, the engine's PartiQL, JSON out. */
public final class PartiqlProtocol {
    private final PqOperations partiql;

    public PartiqlProtocol(Engine engine) {
        this.partiql = new PqOperations(engine);
    }

    void executeStatement(JsonGenerator g, Map<String, Object> b) throws IOException {
        PqResults.ExecuteStatement r = partiql.executeStatement(new PqRequests.ExecuteStatement(
                Fields.string(b, "Statement"), parameters(b), Fields.bool(b, "ConsistentRead"),
                Fields.string(b, "NextToken"), Fields.string(b, "ReturnConsumedCapacity"), Fields.longValue(b, "Limit"),
                Fields.string(b, "ReturnValuesOnConditionCheckFailure")));
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

    void batchExecuteStatement(JsonGenerator g, Map<String, Object> b) throws IOException {
        List<PqRequests.BatchStatement> statements = Fields.objects(b, "Statements",
                s -> s == null ? new PqRequests.BatchStatement(null, null, null, null)
                        : new PqRequests.BatchStatement(Fields.string(s, "Statement"), parameters(s),
                                Fields.bool(s, "ConsistentRead"),
                                Fields.string(s, "ReturnValuesOnConditionCheckFailure")));
        PqResults.BatchExecuteStatement r = partiql.batchExecuteStatement(
                new PqRequests.BatchExecuteStatement(statements, Fields.string(b, "ReturnConsumedCapacity")));
        g.writeArrayFieldStart("Responses");
        for (PqResults.BatchEntry e : r.responses()) {
            batchEntry(g, e);
        }
        g.writeEndArray();
        Operations.consumedCapacities(g, r.consumedCapacity());
    }

    void executeTransaction(JsonGenerator g, Map<String, Object> b) throws IOException {
        List<PqRequests.TransactStatement> statements = Fields.objects(b, "TransactStatements",
                s -> s == null ? new PqRequests.TransactStatement(null, null, null)
                        : new PqRequests.TransactStatement(Fields.string(s, "Statement"), parameters(s),
                                Fields.string(s, "ReturnValuesOnConditionCheckFailure")));
        PqResults.ExecuteTransaction r = partiql.executeTransaction(new PqRequests.ExecuteTransaction(statements,
                Fields.string(b, "ClientRequestToken"), Fields.string(b, "ReturnConsumedCapacity")));
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
