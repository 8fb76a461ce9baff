package dev.kumiko.server.kinesis;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.catalog.KinesisDestinations;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.engine.kinesis.KinesisLink;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.JsonOut;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One change as DynamoDB writes it into a Kinesis data stream (Developer Guide, "Kinesis Data
 * Streams for DynamoDB"): awsRegion, eventID, eventName, userIdentity (the service's identity on
 * TTL deletes, null otherwise), recordFormat, tableName, the dynamodb block (ApproximateCreationDateTime
 * in epoch milliseconds or microseconds as the destination's precision says, Keys, NewImage,
 * OldImage, SizeBytes) and eventSource. The top-level members are in lower camel case, the
 * dynamodb block's in upper camel case, as DynamoDB writes them.
 */
final class KinesisRecordJson {
    static final String EVENT_SOURCE = "aws:dynamodb";
    static final String RECORD_FORMAT = "application/json";
    static final String SERVICE_PRINCIPAL = "dynamodb.amazonaws.com";

    private KinesisRecordJson() {}

    static byte[] of(String region, KinesisLink.Outgoing o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JsonTree.factory().createGenerator(bytes)) {
            write(g, region, o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void write(JsonGenerator g, String region, KinesisLink.Outgoing o) throws IOException {
        ChangeRecord c = o.change();
        g.writeStartObject();
        g.writeStringField("awsRegion", region);
        g.writeStringField("eventID", o.eventId());
        g.writeStringField("eventName", c.eventName().name());
        if (c.origin() == ChangeOrigin.TIME_TO_LIVE) {
            g.writeObjectFieldStart("userIdentity");
            g.writeStringField("type", "Service");
            g.writeStringField("principalId", SERVICE_PRINCIPAL);
            g.writeEndObject();
        } else {
            g.writeNullField("userIdentity");
        }
        g.writeStringField("recordFormat", RECORD_FORMAT);
        g.writeStringField("tableName", o.tableName());
        g.writeObjectFieldStart("dynamodb");
        g.writeNumberField("ApproximateCreationDateTime", creationTime(c.createdMillis(), o.precision()));
        g.writeStringField("ApproximateCreationDateTimePrecision", o.precision().name());
        g.writeFieldName("Keys");
        JsonOut.item(g, c.keys());
        if (c.newImage() != null) {
            g.writeFieldName("NewImage");
            JsonOut.item(g, c.newImage());
        }
        if (c.oldImage() != null) {
            g.writeFieldName("OldImage");
            JsonOut.item(g, c.oldImage());
        }
        g.writeNumberField("SizeBytes", c.sizeBytes());
        g.writeEndObject();
        g.writeStringField("eventSource", EVENT_SOURCE);
        g.writeEndObject();
    }

    /** Epoch milliseconds, or microseconds (Kumiko's clock has milliseconds: the last three digits are 0). */
    static long creationTime(long createdMillis, KinesisDestinations.Precision precision) {
        return precision == KinesisDestinations.Precision.MICROSECOND
                ? Math.multiplyExact(createdMillis, 1000L)
                : createdMillis;
    }
}
