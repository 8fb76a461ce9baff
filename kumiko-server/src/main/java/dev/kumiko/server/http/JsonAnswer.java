package dev.kumiko.server.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A JSON answer before it is put on the wire: its status, its body as sent (the first
 * {@code wireLength} bytes of {@code wire}, gzipped when {@code gzip}) and the values of its headers.
 * {@link WireResponse} writes it as bytes for the answers to DynamoDB calls; {@link #toResponse()}
 * makes it a Netty response for every other path. Both give the same headers in the same order.
 * An answer to a DynamoDB call may hold its body in the thread's response buffer, which is why it
 * is written out before the call that made it returns ({@link DynamoHandler}).
 */
record JsonAnswer(
        HttpResponseStatus status,
        String contentType,
        byte[] wire,
        int wireLength,
        String requestId,
        long crc32,
        boolean gzip) {
    JsonAnswer {
        assert status != null && contentType != null && wire != null && requestId != null;
        assert wireLength >= 0 && wireLength <= wire.length : wireLength;
    }

    /** An answer whose body is all of {@code wire}. */
    JsonAnswer(HttpResponseStatus status, String contentType, byte[] wire, String requestId, long crc32, boolean gzip) {
        this(status, contentType, wire, wire.length, requestId, crc32, gzip);
    }

    FullHttpResponse toResponse() {
        FullHttpResponse r =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(wire, 0, wireLength));
        HttpHeaders h = r.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, wireLength);
        h.set(Responses.REQUEST_ID, requestId);
        h.set(Responses.CRC32, Long.toString(crc32));
        if (gzip) {
            h.set(HttpHeaderNames.CONTENT_ENCODING, Responses.GZIP);
        }
        Responses.common(h);
        return r;
    }
}
