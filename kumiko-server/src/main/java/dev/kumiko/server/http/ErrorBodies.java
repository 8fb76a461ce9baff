package dev.kumiko.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.failure.ConditionalCheckFailed;
import dev.kumiko.engine.failure.TransactionCanceled;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.error.ThroughputExceeded;
import dev.kumiko.server.protocol.JsonOut;
import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * DynamoDB's error body: {"__type": "namespace#Name", "message": "..."}, plus the members some
 * errors carry (Item, CancellationReasons, ThrottlingReasons).
 */
final class ErrorBodies {
    private ErrorBodies() {}

    static byte[] of(DynamoException e) {
        return of(e, null);
    }

    /** {@code region}: the request's, for the ARNs in ThrottlingReasons; may be null otherwise. */
    static byte[] of(DynamoException e, @Nullable String region) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeStringField("__type", e.code().type());
            if (e instanceof TransactionCanceled tc) {
                cancellation(g, tc);
            } else if (e.getMessage() != null) {
                // DynamoDB's front end spells the member "Message" on SerializationException (the
                // SDKs read either case); the service's own errors use "message".
                g.writeStringField(e.code() == ErrorCode.SERIALIZATION ? "Message" : "message", e.getMessage());
            }
            if (e instanceof ConditionalCheckFailed ccf && ccf.item() != null) {
                g.writeFieldName("Item");
                JsonOut.item(g, ccf.item());
            }
            if (e instanceof ThroughputExceeded t) {
                throttlingReasons(g, t, region);
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

    /**
     * The throttling reasons DynamoDB returns:
     * [{"reason": "TableWriteProvisionedThroughputExceeded", "resource": "<table or index ARN>"}].
     * The API model spells the member ThrottlingReasons on ProvisionedThroughputExceededException
     * but throttlingReasons on ThrottlingException, and the SDKs read it only under that name.
     */
    private static void throttlingReasons(JsonGenerator g, ThroughputExceeded t, @Nullable String region)
            throws IOException {
        RequestContext ctx = new RequestContext(Objects.requireNonNull(
                region, "a throttling error is raised only within a request, which has a region"));
        g.writeArrayFieldStart(t.code() == ErrorCode.THROTTLING ? "throttlingReasons" : "ThrottlingReasons");
        for (ThroughputExceeded.Reason r : t.reasons()) {
            String table = ctx.tableArn(r.tableName());
            g.writeStartObject();
            g.writeStringField("reason", r.reason());
            g.writeStringField("resource", r.indexName() == null ? table : table + "/index/" + r.indexName());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
