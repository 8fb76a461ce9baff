package dev.kumiko.server.http;

import dev.kumiko.error.DynamoException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the HTTP handler tells observers about each DynamoDB request (metrics, the request log),
 * and the extra GET paths it serves (the console, /metrics). All three request calls run on the
 * event loop that runs the request, in order, so an implementation may keep per-thread state;
 * they must not allocate when nothing is recorded, and must not throw.
 */
public interface RequestHooks {
    /** Observes nothing and serves no extra path. */
    RequestHooks NONE = new RequestHooks() {};

    /** A POST is about to be handled. */
    default void begin() {}

    /** The request is authenticated and decoded: this operation, with this body, runs now. */
    default void named(String operation, Map<String, Object> body) {}

    /** The request is answered: {@code error} is null for a 200. */
    default void end(@Nullable DynamoException error) {}

    /** Answers a GET path the hooks own, or null to leave it to the health check. */
    default @Nullable FullHttpResponse get(FullHttpRequest req) {
        return null;
    }
}
