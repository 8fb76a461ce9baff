package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.kinesis.KinesisRequests;
import dev.kumiko.engine.kinesis.KinesisRequests.Changed;
import dev.kumiko.engine.kinesis.KinesisRequests.Description;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Registrations of the Kinesis streaming destination operations: EnableKinesisStreamingDestination,
 * DisableKinesisStreamingDestination, UpdateKinesisStreamingDestination and
 * DescribeKinesisStreamingDestination (docs/kinesis.md). The precision is decoded as its word and
 * checked by the engine, which names the member in DynamoDB's "failed to satisfy constraint" message.
 */
final class KinesisDestinationRegistration {
    static final List<String> NAMES = List.of(
            "EnableKinesisStreamingDestination",
            "DisableKinesisStreamingDestination",
            "UpdateKinesisStreamingDestination",
            "DescribeKinesisStreamingDestination");

    private static final String ENABLE_CONFIGURATION = "EnableKinesisStreamingConfiguration";
    private static final String UPDATE_CONFIGURATION = "UpdateKinesisStreamingConfiguration";
    private static final String PRECISION = "ApproximateCreationDateTimePrecision";

    private KinesisDestinationRegistration() {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "EnableKinesisStreamingDestination" ->
                dynamodb(
                        name,
                        b -> new KinesisRequests.Enable(
                                Fields.string(b, "TableName"),
                                Fields.string(b, "StreamArn"),
                                precision(b, ENABLE_CONFIGURATION)),
                        (e, r, c) -> e.kinesis().operations().enable(r),
                        (g, t, c) -> changed(g, t, ENABLE_CONFIGURATION),
                        (r, f) -> ResourceChecks.table(name, r.tableName(), f));
            case "DisableKinesisStreamingDestination" ->
                dynamodb(
                        name,
                        b -> new KinesisRequests.Disable(
                                Fields.string(b, "TableName"),
                                Fields.string(b, "StreamArn"),
                                precision(b, ENABLE_CONFIGURATION)),
                        (e, r, c) -> e.kinesis().operations().disable(r),
                        (g, t, c) -> changed(g, t, ENABLE_CONFIGURATION),
                        (r, f) -> ResourceChecks.table(name, r.tableName(), f));
            case "UpdateKinesisStreamingDestination" ->
                dynamodb(
                        name,
                        b -> new KinesisRequests.Update(
                                Fields.string(b, "TableName"),
                                Fields.string(b, "StreamArn"),
                                Fields.object(b, UPDATE_CONFIGURATION) != null,
                                precision(b, UPDATE_CONFIGURATION)),
                        (e, r, c) -> e.kinesis().operations().update(r),
                        (g, t, c) -> changed(g, t, UPDATE_CONFIGURATION),
                        (r, f) -> ResourceChecks.table(name, r.tableName(), f));
            case "DescribeKinesisStreamingDestination" ->
                dynamodb(
                        name,
                        b -> new KinesisRequests.Describe(Fields.string(b, "TableName")),
                        (e, r, c) -> e.kinesis().operations().describe(r),
                        (g, t, c) -> description(g, t),
                        (r, f) -> ResourceChecks.table(name, r.tableName(), f));
            default -> throw new IllegalArgumentException("not a Kinesis streaming destination operation: " + name);
        };
    }

    /** The configuration object's precision, or null when the object or the member is absent. */
    private static @Nullable String precision(Map<String, Object> b, String configuration) {
        Map<String, Object> config = Fields.object(b, configuration);
        return config == null ? null : Fields.string(config, PRECISION);
    }

    private static void changed(JsonGenerator g, Changed c, String configuration) throws IOException {
        g.writeStringField("TableName", c.tableName());
        g.writeStringField("StreamArn", c.streamArn());
        g.writeStringField("DestinationStatus", c.destinationStatus());
        if (c.precision() != null) {
            g.writeObjectFieldStart(configuration);
            g.writeStringField(PRECISION, c.precision());
            g.writeEndObject();
        }
    }

    private static void description(JsonGenerator g, Description d) throws IOException {
        g.writeStringField("TableName", d.tableName());
        g.writeArrayFieldStart("KinesisDataStreamDestinations");
        for (KinesisRequests.Destination x : d.destinations()) {
            g.writeStartObject();
            g.writeStringField("StreamArn", x.streamArn());
            g.writeStringField("DestinationStatus", x.destinationStatus());
            if (x.statusDescription() != null) {
                g.writeStringField("DestinationStatusDescription", x.statusDescription());
            }
            g.writeStringField(PRECISION, x.precision());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
