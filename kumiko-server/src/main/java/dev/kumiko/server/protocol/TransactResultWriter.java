package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import dev.kumiko.engine.txn.TransactResults;
import dev.kumiko.model.AttributeValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Writes TransactWriteItems and TransactGetItems responses. */
final class TransactResultWriter {
    private TransactResultWriter() {}

    static void transactWrite(JsonGenerator g, TransactResults.TransactWrite r) throws IOException {
        capacities(g, r.consumedCapacity());
        if (r.itemCollectionMetrics() != null) {
            g.writeObjectFieldStart("ItemCollectionMetrics");
            for (Map.Entry<String, List<ItemCollectionMetrics>> e : r.itemCollectionMetrics().entrySet()) {
                g.writeArrayFieldStart(e.getKey());
                for (ItemCollectionMetrics m : e.getValue()) {
                    Operations.itemCollectionMetricsObject(g, m);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
    }

    /** Responses in request order; a missing item is an empty ItemResponse. */
    static void transactGet(JsonGenerator g, TransactResults.TransactGet r) throws IOException {
        capacities(g, r.consumedCapacity());
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
    }

    private static void capacities(JsonGenerator g, List<ConsumedCapacity> list) throws IOException {
        if (list == null) {
            return;
        }
        g.writeArrayFieldStart("ConsumedCapacity");
        for (ConsumedCapacity c : list) {
            Operations.consumedCapacityObject(g, c);
        }
        g.writeEndArray();
    }
}
