package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.Engine;
import dev.kumiko.server.policy.AuthRule;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * One operation Kumiko serves, registered once in the {@link OperationTable}: its name, how its
 * body becomes a typed request, the engine call, how the answer is written, and which permissions
 * it needs. A request runs through them in that order; the authorization rule reads the decoded
 * request, before the engine is called.
 *
 * @param <R> the typed request (an engine request record, or a small record of the members read)
 * @param <T> what the engine answers
 */
public record Operation<R, T>(
        Api api, String name, Decoder<R> decoder, Call<R, T> call, Encoder<T> encoder, AuthRule<R> authorization) {

    /** The API a request names its operation in. */
    public enum Api {
        /** X-Amz-Target DynamoDB_20120810.NAME */
        DYNAMODB,
        /** X-Amz-Target DynamoDBStreams_20120810.NAME */
        STREAMS,
        /** Kumiko's own endpoints, named "METHOD /kumiko/admin/path" */
        ADMIN
    }

    /** Fails at construction, so an operation without an authorization rule cannot be registered. */
    public Operation {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(decoder, name + ": decoder");
        Objects.requireNonNull(call, name + ": call");
        Objects.requireNonNull(encoder, name + ": encoder");
        Objects.requireNonNull(authorization, name + ": an operation needs an authorization rule");
    }

    /**
     * The request of an operation that reads no member, and the answer of one that answers nothing:
     * a value where Void would have only null.
     */
    public enum Nothing {
        NOTHING
    }

    /** Body (parsed JSON object; an empty one for an admin request without a body) to typed request. */
    @FunctionalInterface
    public interface Decoder<R> {
        R decode(Map<String, Object> body);
    }

    /** The engine call, with the request's context (region, caller, request id). */
    @FunctionalInterface
    public interface Call<R, T> {
        T call(Engine engine, R request, CallContext ctx);
    }

    /** Writes the answer's members into the response object, which the table opens and closes. */
    @FunctionalInterface
    public interface Encoder<T> {
        void write(JsonGenerator g, T result, CallContext ctx) throws IOException;

        /** For operations that answer an empty object. */
        static <T> Encoder<T> empty() {
            return (g, result, ctx) -> {};
        }
    }
}
