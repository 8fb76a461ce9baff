package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * An answer written by WireResponse is byte for byte what Netty's encoder writes for the same answer
 * as a response object, with the handler's connection and CORS headers, over every combination of
 * status, content type, gzip, keep-alive, Origin and body length.
 */
class WireResponseTest {
    private static final HttpResponseStatus[] STATUSES = {
        HttpResponseStatus.OK,
        HttpResponseStatus.BAD_REQUEST,
        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
        HttpResponseStatus.INTERNAL_SERVER_ERROR,
        HttpResponseStatus.SERVICE_UNAVAILABLE
    };

    @Test
    void bytesEqualNettysEncoding() {
        SplittableRandom random = new SplittableRandom(7);
        int compared = 0;
        for (HttpResponseStatus status : STATUSES) {
            for (String contentType : new String[] {HttpEdge.AMZ_JSON, HttpEdge.JSON}) {
                for (int flags = 0; flags < 8; flags++) {
                    boolean gzip = (flags & 1) != 0;
                    boolean keepAlive = (flags & 2) != 0;
                    boolean origin = (flags & 4) != 0;
                    byte[] body = body(random, random.nextInt(4) == 0 ? 0 : random.nextInt(1, 3000));
                    JsonAnswer a =
                            new JsonAnswer(status, contentType, body, RequestIds.next(), Responses.crc32(body), gzip);
                    assertSameBytes(a, a, keepAlive, origin);
                    // The body at the start of a larger buffer (the thread's response buffer): only its bytes go out.
                    byte[] buffer = java.util.Arrays.copyOf(body, body.length + random.nextInt(1, 100));
                    java.util.Arrays.fill(buffer, body.length, buffer.length, (byte) 'x');
                    JsonAnswer inBuffer =
                            new JsonAnswer(status, contentType, buffer, body.length, a.requestId(), a.crc32(), gzip);
                    assertSameBytes(inBuffer, a, keepAlive, origin);
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(STATUSES.length * 2 * 8);
    }

    /** An answer's body taken from a larger buffer is the same answer as from an array of its own. */
    @Test
    void aBodyInALargerBufferIsSentAsItsOwnArrayWouldBe() {
        byte[] body = "{\"Count\":0}".getBytes(StandardCharsets.UTF_8);
        byte[] buffer = java.util.Arrays.copyOf(body, 64);
        JsonAnswer own =
                new JsonAnswer(HttpResponseStatus.OK, HttpEdge.AMZ_JSON, body, "id", Responses.crc32(body), false);
        JsonAnswer inBuffer = new JsonAnswer(
                HttpResponseStatus.OK, HttpEdge.AMZ_JSON, buffer, body.length, "id", Responses.crc32(body), false);
        // Retried if the two encodings straddle a second (their Date headers then differ).
        String fromBuffer = null;
        String fromOwn = null;
        for (int attempt = 0; attempt < 3 && (fromBuffer == null || !fromBuffer.equals(fromOwn)); attempt++) {
            fromBuffer = nettyEncoding(inBuffer, true, false);
            fromOwn = nettyEncoding(own, true, false);
        }
        assertThat(fromBuffer).isEqualTo(fromOwn);
    }

    @Test
    void decimalsOfEveryLength() {
        for (long v : new long[] {0, 9, 10, 99, 100, 4_294_967_295L, Long.MAX_VALUE}) {
            ByteBuf buf = Unpooled.buffer(1);
            WireResponse.decimal(buf, v);
            assertThat(buf.toString(StandardCharsets.US_ASCII)).isEqualTo(Long.toString(v));
        }
    }

    /**
     * a written by WireResponse against expected written by Netty's encoder. Compares within one
     * second of the Date header (retried if the two straddle a second).
     */
    private static void assertSameBytes(JsonAnswer a, JsonAnswer expected, boolean keepAlive, boolean origin) {
        String wire = null;
        String netty = null;
        for (int attempt = 0; attempt < 3 && (wire == null || !wire.equals(netty)); attempt++) {
            ByteBuf buf = WireResponse.encode(ByteBufAllocator.DEFAULT, a, keepAlive, origin);
            wire = buf.toString(StandardCharsets.ISO_8859_1);
            buf.release();
            netty = nettyEncoding(expected, keepAlive, origin);
        }
        assertThat(wire)
                .as("%s keepAlive=%s origin=%s gzip=%s", a.status(), keepAlive, origin, a.gzip())
                .isEqualTo(netty);
    }

    private static String nettyEncoding(JsonAnswer a, boolean keepAlive, boolean origin) {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        if (origin) {
            req.headers().set(HttpHeaderNames.ORIGIN, "http://localhost:3000");
        }
        FullHttpResponse r = a.toResponse();
        HttpUtil.setKeepAlive(r, keepAlive);
        Cors.addHeaders(req, r.headers());
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        ch.writeOutbound(r);
        StringBuilder out = new StringBuilder();
        for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
            out.append(b.toString(StandardCharsets.ISO_8859_1));
        }
        ch.finishAndReleaseAll();
        return out.toString();
    }

    private static byte[] body(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }
}
