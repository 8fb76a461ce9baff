package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.engine.item.BatchResults;
import dev.kumiko.model.AttributeValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Writes BatchWriteItem and BatchGetItem responses. */
final class BatchResultWriter {
    private BatchResultWriter() {}

    static void batchWrite(JsonGenerator g, BatchResults.BatchWrite r) throws IOException {
        g.writeObjectFieldStart("UnprocessedItems");
        for (Map.Entry<String, List<BatchRequests.WriteRequest>> e :
                r.unprocessedItems().entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (BatchRequests.WriteRequest w : e.getValue()) {
                writeRequest(g, w);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        Operations.consumedCapacities(g, r.consumedCapacity());
        Operations.itemCollectionMetricsByTable(g, r.itemCollectionMetrics());
    }

    private static void writeRequest(JsonGenerator g, BatchRequests.WriteRequest w) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart(w.put() != null ? "PutRequest" : "DeleteRequest");
        g.writeFieldName(w.put() != null ? "Item" : "Key");
        Map<String, AttributeValue> put = w.put();
        // An unprocessed WriteRequest has exactly one of put and delete (BatchWriteOperation refuses others).
        JsonOut.item(g, put != null ? put : Objects.requireNonNull(w.delete(), "a WriteRequest has put or delete"));
        g.writeEndObject();
        g.writeEndObject();
    }

    static void batchGet(JsonGenerator g, BatchResults.BatchGet r) throws IOException {
        g.writeObjectFieldStart("Responses");
        for (Map.Entry<String, List<Map<String, AttributeValue>>> e :
                r.responses().entrySet()) {
            g.writeFieldName(e.getKey());
            JsonOut.items(g, e.getValue());
        }
        g.writeEndObject();
        g.writeObjectFieldStart("UnprocessedKeys");
        for (Map.Entry<String, BatchRequests.KeysAndAttributes> e :
                r.unprocessedKeys().entrySet()) {
            g.writeFieldName(e.getKey());
            keysAndAttributes(g, e.getValue());
        }
        g.writeEndObject();
        Operations.consumedCapacities(g, r.consumedCapacity());
    }

    private static void keysAndAttributes(JsonGenerator g, BatchRequests.KeysAndAttributes k) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("Keys");
        for (Map<String, AttributeValue> key : k.keys()) {
            JsonOut.item(g, key);
        }
        g.writeEndArray();
        if (k.projectionExpression() != null) {
            g.writeStringField("ProjectionExpression", k.projectionExpression());
        }
        if (k.expressionAttributeNames() != null) {
            g.writeObjectFieldStart("ExpressionAttributeNames");
            for (Map.Entry<String, String> e : k.expressionAttributeNames().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        }
        if (k.attributesToGet() != null) {
            JsonOut.stringArray(g, "AttributesToGet", k.attributesToGet());
        }
        if (k.consistentRead() != null) {
            g.writeBooleanField("ConsistentRead", k.consistentRead());
        }
        g.writeEndObject();
    }
}
