package dev.kumiko.server.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/** CORS for browser clients (the JavaScript SDK in a page, web consoles): any origin may call. */
final class Cors {
    static final String EXPOSED = "x-amzn-RequestId,x-amzn-ErrorType,x-amz-crc32,Date";
    private static final String MAX_AGE_SECONDS = "172800";

    private Cors() {}

    /** A request with an Origin is a browser's, and its answer carries the CORS headers. */
    static boolean applies(FullHttpRequest req) {
        return req.headers().contains(HttpHeaderNames.ORIGIN);
    }

    static void addHeaders(FullHttpRequest req, HttpHeaders h) {
        if (!applies(req)) {
            return;
        }
        h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        h.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
    }

    static FullHttpResponse preflight(FullHttpRequest req) {
        FullHttpResponse r =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER);
        HttpHeaders h = r.headers();
        // Without an Origin this is no CORS request, and DynamoDB sends no CORS headers.
        if (req.headers().get(HttpHeaderNames.ORIGIN) != null) {
            String requested = req.headers().get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS);
            String method = req.headers().get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, method != null ? method : "GET, POST, OPTIONS");
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, requested != null ? requested : "*");
            h.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
        }
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        h.set(Responses.REQUEST_ID, RequestIds.next());
        Responses.common(h);
        return r;
    }
}
