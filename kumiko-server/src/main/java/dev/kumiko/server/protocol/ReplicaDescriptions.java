package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.replication.GlobalTables;
import dev.kumiko.engine.replication.ReplicaSet;
import java.io.IOException;

/**
 * A global table's members of a TableDescription: {@code GlobalTableVersion} and {@code Replicas},
 * one ReplicaDescription per region other than the one answering, as DynamoDB lists them (the
 * answering region's own table is the description itself).
 */
final class ReplicaDescriptions {
    private ReplicaDescriptions() {}

    static void write(JsonGenerator g, ReplicaSet set, String localRegion) throws IOException {
        g.writeStringField("GlobalTableVersion", GlobalTables.VERSION);
        g.writeArrayFieldStart("Replicas");
        for (ReplicaSet.Replica r : set.replicas()) {
            if (r.region().equals(localRegion)) {
                continue;
            }
            g.writeStartObject();
            g.writeStringField("RegionName", r.region());
            g.writeStringField("ReplicaStatus", r.status().name());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
