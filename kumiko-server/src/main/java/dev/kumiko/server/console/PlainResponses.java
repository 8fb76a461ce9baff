package dev.kumiko.server.console;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** Responses of the console's and the metrics' GET paths: a body, its type, no caching. */
final class PlainResponses {
    private PlainResponses() {}

    static FullHttpResponse of(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        // The console is served by the version of Kumiko that runs: never a stale copy after an upgrade.
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        r.headers().set("X-Content-Type-Options", "nosniff");
        return r;
    }

    static FullHttpResponse json(HttpResponseStatus status, byte[] body) {
        return of(status, "application/json", body);
    }

    /** A JSON {"message": ...} error, as the admin endpoints answer. */
    static FullHttpResponse message(HttpResponseStatus status, String message) {
        String escaped = message.replace("\\", "\\\\").replace("\"", "\\\"");
        return json(status, ("{\"message\":\"" + escaped + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    static FullHttpResponse redirect(String location) {
        FullHttpResponse r = of(HttpResponseStatus.MOVED_PERMANENTLY, "text/plain", new byte[0]);
        r.headers().set(HttpHeaderNames.LOCATION, location);
        return r;
    }
}
