package dev.kumiko.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.error.CancellationReason;
import dev.kumiko.error.ConditionalCheckFailed;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.TransactionCanceled;
import dev.kumiko.server.protocol.JsonOut;
import java.io.IOException;

/** DynamoDB's error body: {"__type": "namespace#Name", "message": "..."}, plus what some errors carry. */
final class ErrorBodies {
    private ErrorBodies() {}

    static byte[] of(DynamoException e) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeStringField("__type", e.code().type());
            if (e instanceof TransactionCanceled tc) {
                cancellation(g, tc);
            } else if (e.getMessage() != null) {
                g.writeStringField("message", e.getMessage());
            }
            if (e instanceof ConditionalCheckFailed ccf && ccf.item() != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, ccf.item());
            }
            g.writeEndObject();
            return out.toBytes();
        } catch (IOException x) {
            throw new IllegalStateException(x);
        }
    }

    /**
     * As captured from DynamoDB: the reasons first, then "Message" with a capital M (the SDKs read
     * either case); a reason has Code, then Item and Message when it has them.
     */
    private static void cancellation(JsonGenerator g, TransactionCanceled e) throws IOException {
        g.writeArrayFieldStart("CancellationReasons");
        for (CancellationReason r : e.reasons()) {
            g.writeStartObject();
            g.writeStringField("Code", r.code());
            if (r.item() != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, r.item());
            }
            if (r.message() != null) {
                g.writeStringField("Message", r.message());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("Message", e.getMessage());
    }
}
