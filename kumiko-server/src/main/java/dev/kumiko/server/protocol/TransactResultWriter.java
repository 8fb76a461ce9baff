package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.txn.TransactResults;
import dev.kumiko.model.AttributeValue;
import java.io.IOException;
import java.util.Map;

/** Writes TransactWriteItems and TransactGetItems responses. */
final class TransactResultWriter {
    private TransactResultWriter() {}

    static void transactWrite(JsonGenerator g, TransactResults.TransactWrite r) throws IOException {
        Operations.consumedCapacities(g, r.consumedCapacity());
        Operations.itemCollectionMetricsByTable(g, r.itemCollectionMetrics());
    }

    /** Responses in request order; a missing item is an empty ItemResponse. */
    static void transactGet(JsonGenerator g, TransactResults.TransactGet r) throws IOException {
        Operations.consumedCapacities(g, r.consumedCapacity());
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
}
