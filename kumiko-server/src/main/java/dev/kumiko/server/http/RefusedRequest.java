package dev.kumiko.server.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A request let go for want of room in the server's {@link InFlightBytes}: its head, without its
 * body (which was read and dropped), for the handler to answer with the 503 in its turn on the
 * connection, so that pipelined answers keep their order and the connection stays usable.
 */
final class RefusedRequest extends DefaultFullHttpRequest {
    RefusedRequest(HttpVersion version, HttpMethod method, String uri, HttpHeaders headers) {
        super(version, method, uri, Unpooled.EMPTY_BUFFER, headers, EmptyHttpHeaders.INSTANCE);
    }
}
