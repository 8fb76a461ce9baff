package dev.kumiko.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A request whose body holds heldBytes of the server's {@link InFlightBytes}, which the handler
 * gives back once the request is answered.
 */
final class AdmittedRequest extends DefaultFullHttpRequest {
    private final long heldBytes;

    AdmittedRequest(String uri, ByteBuf content, HttpHeaders headers, HttpHeaders trailers, long heldBytes) {
        this(HttpVersion.HTTP_1_1, HttpMethod.POST, uri, content, headers, trailers, heldBytes);
    }

    private AdmittedRequest(
            HttpVersion version,
            HttpMethod method,
            String uri,
            ByteBuf content,
            HttpHeaders headers,
            HttpHeaders trailers,
            long heldBytes) {
        super(version, method, uri, content, headers, trailers);
        this.heldBytes = heldBytes;
    }

    /** The same request (its content, not a copy), now holding heldBytes of the budget. */
    static AdmittedRequest of(FullHttpRequest req, long heldBytes) {
        return new AdmittedRequest(
                req.protocolVersion(),
                req.method(),
                req.uri(),
                req.content(),
                req.headers(),
                req.trailingHeaders(),
                heldBytes);
    }

    long heldBytes() {
        return heldBytes;
    }
}
