package dev.kumiko.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.error.ConditionalCheckFailed;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.protocol.JsonOut;
import java.io.IOException;

/** DynamoDB's error body: {"__type": "namespace#Name", "message": "..."}. */
final class ErrorBodies {
    private ErrorBodies() {}

    static byte[] of(DynamoException e) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeStringField("__type", e.code().type());
            if (e.getMessage() != null) {
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
}
