package dev.kumiko.server.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;

/**
 * Builds JSON responses. x-amz-crc32 covers the bytes on the wire: the compressed body when the
 * response is gzipped, which is what the SDKs check for DynamoDB.
 */
final class Responses {
    private Responses() {}

    static FullHttpResponse json(HttpResponseStatus status, byte[] body, String requestId, FullHttpRequest req,
            int compressionThresholdBytes) {
        byte[] wire = body;
        boolean gzip = req != null && body.length >= compressionThresholdBytes && acceptsGzip(req);
        if (gzip) {
            wire = gzip(body);
        }
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(wire));
        HttpHeaders h = r.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, HttpEdge.responseContentType(req));
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, wire.length);
        h.set("x-amzn-RequestId", requestId);
        h.set("x-amz-crc32", Long.toString(crc32(wire)));
        if (gzip) {
            h.set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        }
        common(h);
        return r;
    }

    static void common(HttpHeaders h) {
        h.set(HttpHeaderNames.SERVER, "Kumiko");
        h.set(HttpHeaderNames.DATE, HttpDate.now());
    }

    private static boolean acceptsGzip(FullHttpRequest req) {
        String accept = req.headers().get(HttpHeaderNames.ACCEPT_ENCODING);
        return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("gzip");
    }

    static long crc32(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return crc.getValue();
    }

    private static byte[] gzip(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out, 8192)) {
            z.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
