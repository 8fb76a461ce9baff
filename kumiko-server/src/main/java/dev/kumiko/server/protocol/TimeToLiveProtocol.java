package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.ttl.TimeToLiveOperations;
import dev.kumiko.engine.ttl.TimeToLiveRequests;
import java.io.IOException;
import java.util.Map;

/** UpdateTimeToLive and DescribeTimeToLive on the wire. */
final class TimeToLiveProtocol {
    private TimeToLiveProtocol() {}

    static void update(JsonGenerator g, TimeToLiveOperations ttl, Map<String, Object> b) throws IOException {
        Map<String, Object> spec = Fields.object(b, "TimeToLiveSpecification");
        TimeToLiveRequests.Specification answer = ttl.updateTimeToLive(new TimeToLiveRequests.UpdateTimeToLive(
                Fields.string(b, "TableName"), spec == null ? null : new TimeToLiveRequests.Specification(
                        Fields.string(spec, "AttributeName"), Fields.bool(spec, "Enabled"))));
        g.writeObjectFieldStart("TimeToLiveSpecification");
        g.writeStringField("AttributeName", answer.attributeName());
        g.writeBooleanField("Enabled", answer.enabled());
        g.writeEndObject();
    }

    static void describe(JsonGenerator g, TimeToLiveOperations ttl, Map<String, Object> b) throws IOException {
        TimeToLiveRequests.Description d = ttl.describeTimeToLive(Fields.string(b, "TableName"));
        g.writeObjectFieldStart("TimeToLiveDescription");
        g.writeStringField("TimeToLiveStatus", d.timeToLiveStatus());
        if (d.attributeName() != null) {
            g.writeStringField("AttributeName", d.attributeName());
        }
        g.writeEndObject();
    }
}
