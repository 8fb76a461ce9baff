package dev.kumiko.server.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How DynamoDB's front end treats requests that are not a JSON POST, and which content type it
 * answers with. A wrong method or content type never reaches the service: DynamoDB answers 404
 * with a bare UnknownOperationException document (UNVERIFIED body, docs/notes/error-messages.md).
 */
final class HttpEdge {
    static final String AMZ_JSON = "application/x-amz-json-1.0";
    static final String JSON = "application/json";
    private static final byte[] NOT_FOUND_BODY = "<UnknownOperationException/>\n".getBytes(StandardCharsets.UTF_8);
    /** Operations whose success DynamoDB answers with no body at all. */
    private static final Set<String> EMPTY_BODY_OPERATIONS = Set.of("TagResource", "UntagResource");

    private HttpEdge() {}

    /** Absent counts as JSON (some hand-written clients omit it); a present other type does not. */
    static boolean isJsonContentType(HttpHeaders h) {
        String type = mediaType(h.get(HttpHeaderNames.CONTENT_TYPE));
        return type == null || type.equals(AMZ_JSON) || type.equals(JSON);
    }

    /** A request sent as application/json is answered as application/json, as DynamoDB does. */
    static String responseContentType(@Nullable FullHttpRequest req) {
        return req != null && JSON.equals(mediaType(req.headers().get(HttpHeaderNames.CONTENT_TYPE))) ? JSON : AMZ_JSON;
    }

    static boolean answersEmptyBody(String operation) {
        return EMPTY_BODY_OPERATIONS.contains(operation);
    }

    static FullHttpResponse notFound() {
        FullHttpResponse r = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND, Unpooled.wrappedBuffer(NOT_FOUND_BODY));
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, NOT_FOUND_BODY.length);
        r.headers().set(Responses.REQUEST_ID, RequestIds.next());
        Responses.common(r.headers());
        return r;
    }

    private static @Nullable String mediaType(@Nullable String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.trim().toLowerCase(Locale.ROOT);
    }
}
