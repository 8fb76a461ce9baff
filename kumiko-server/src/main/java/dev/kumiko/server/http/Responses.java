package dev.kumiko.server.http;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * Builds JSON responses. x-amz-crc32 covers the bytes on the wire: the compressed body when the
 * response is gzipped, which is what the SDKs check for DynamoDB.
 */
final class Responses {
    static final String REQUEST_ID = "x-amzn-RequestId";
    static final String CRC32 = "x-amz-crc32";
    static final String GZIP = "gzip";
    static final String SERVER = "Kumiko";

    private Responses() {}

    static FullHttpResponse json(
            HttpResponseStatus status,
            byte[] body,
            String requestId,
            @Nullable FullHttpRequest req,
            int compressionThresholdBytes) {
        return answer(status, body, requestId, req, compressionThresholdBytes).toResponse();
    }

    /** The answer with body, gzipped when the body is at least the threshold and the client accepts gzip. */
    static JsonAnswer answer(
            HttpResponseStatus status,
            byte[] body,
            String requestId,
            @Nullable FullHttpRequest req,
            int compressionThresholdBytes) {
        return answer(status, body, body.length, requestId, req, compressionThresholdBytes);
    }

    /** The same for the body in the first {@code length} bytes of {@code body}. */
    static JsonAnswer answer(
            HttpResponseStatus status,
            byte[] body,
            int length,
            String requestId,
            @Nullable FullHttpRequest req,
            int compressionThresholdBytes) {
        String contentType = HttpEdge.responseContentType(req);
        if (req != null && length >= compressionThresholdBytes && acceptsGzip(req)) {
            byte[] wire = gzip(body, length);
            return new JsonAnswer(status, contentType, wire, requestId, crc32(wire, wire.length), true);
        }
        return new JsonAnswer(status, contentType, body, length, requestId, crc32(body, length), false);
    }

    static void common(HttpHeaders h) {
        h.set(HttpHeaderNames.SERVER, SERVER);
        h.set(HttpHeaderNames.DATE, HttpDate.now());
    }

    private static boolean acceptsGzip(FullHttpRequest req) {
        String accept = req.headers().get(HttpHeaderNames.ACCEPT_ENCODING);
        return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("gzip");
    }

    static long crc32(byte[] bytes) {
        return crc32(bytes, bytes.length);
    }

    private static long crc32(byte[] bytes, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }

    private static byte[] gzip(byte[] body, int length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(length / 4 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out, 8192)) {
            z.write(body, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
