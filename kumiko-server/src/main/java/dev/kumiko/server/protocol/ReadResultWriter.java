package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.read.ReadResult;
import java.io.IOException;

/** Writes a Query or Scan page: Items (absent for Select COUNT), Count, ScannedCount, LastEvaluatedKey. */
final class ReadResultWriter {
    private ReadResultWriter() {}

    static void write(JsonGenerator g, ReadResult r) throws IOException {
        if (r.items() != null) {
            g.writeFieldName("Items");
            JsonOut.items(g, r.items());
        }
        g.writeNumberField("Count", r.count());
        g.writeNumberField("ScannedCount", r.scannedCount());
        if (r.lastEvaluatedKey() != null) {
            g.writeFieldName("LastEvaluatedKey");
            JsonOut.item(g, r.lastEvaluatedKey());
        }
        if (r.consumedCapacity() != null) {
            Operations.consumedCapacity(g, r.consumedCapacity());
        }
    }
}
