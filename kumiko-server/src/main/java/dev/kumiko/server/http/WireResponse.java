package dev.kumiko.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * A {@link JsonAnswer} written as HTTP/1.1 bytes in one buffer: the status line, the headers in the
 * order and spelling Netty's encoder gives {@link JsonAnswer#toResponse()} (then "connection: close"
 * and the CORS headers, as the handler adds them), and the body. Every answer to a DynamoDB call
 * takes this path: one pooled buffer and one write(2), where a response object costs a header map,
 * an encoder pass and a copy of the body into a second, direct buffer. WireResponseTest holds the
 * bytes equal to the encoder's.
 */
final class WireResponse {
    /**
     * Room for the status line and headers: about 420 bytes with every optional header (gzip,
     * connection: close, CORS) and the longest status line sent (413); the longest values are the
     * CORS list (51 characters), the request id (52) and the date (29). Asserted in {@link #encode}.
     */
    static final int HEAD_BYTES_MAX = 512;

    private static final byte[] HTTP_1_1 = ascii("HTTP/1.1 ");
    private static final byte[] CRLF = ascii("\r\n");
    private static final byte[] CONTENT_TYPE = ascii("content-type: ");
    private static final byte[] CONTENT_LENGTH = ascii("\r\ncontent-length: ");
    private static final byte[] REQUEST_ID = ascii("\r\n" + Responses.REQUEST_ID + ": ");
    private static final byte[] CRC32 = ascii("\r\n" + Responses.CRC32 + ": ");
    private static final byte[] CONTENT_ENCODING_GZIP = ascii("\r\ncontent-encoding: " + Responses.GZIP);
    private static final byte[] SERVER = ascii("\r\nserver: " + Responses.SERVER);
    private static final byte[] DATE = ascii("\r\ndate: ");
    private static final byte[] CONNECTION_CLOSE = ascii("\r\nconnection: close");
    private static final byte[] CORS =
            ascii("\r\naccess-control-allow-origin: *\r\naccess-control-expose-headers: " + Cors.EXPOSED);
    private static final byte[] END_OF_HEAD = ascii("\r\n\r\n");

    private WireResponse() {}

    /**
     * @param keepAlive false: the connection closes after this answer, and it says so
     * @param cors      the request came with an Origin header
     */
    static ByteBuf encode(ByteBufAllocator alloc, JsonAnswer a, boolean keepAlive, boolean cors) {
        ByteBuf buf = alloc.ioBuffer(HEAD_BYTES_MAX + a.wireLength());
        buf.writeBytes(HTTP_1_1);
        decimal(buf, a.status().code());
        buf.writeByte(' ');
        ByteBufUtil.writeAscii(buf, a.status().reasonPhrase());
        buf.writeBytes(CRLF).writeBytes(CONTENT_TYPE);
        ByteBufUtil.writeAscii(buf, a.contentType());
        buf.writeBytes(CONTENT_LENGTH);
        decimal(buf, a.wireLength());
        buf.writeBytes(REQUEST_ID);
        ByteBufUtil.writeAscii(buf, a.requestId());
        buf.writeBytes(CRC32);
        decimal(buf, a.crc32());
        if (a.gzip()) {
            buf.writeBytes(CONTENT_ENCODING_GZIP);
        }
        buf.writeBytes(SERVER).writeBytes(DATE);
        ByteBufUtil.writeAscii(buf, HttpDate.now());
        if (!keepAlive) {
            buf.writeBytes(CONNECTION_CLOSE);
        }
        if (cors) {
            buf.writeBytes(CORS);
        }
        buf.writeBytes(END_OF_HEAD);
        assert buf.writerIndex() <= HEAD_BYTES_MAX : "head of " + buf.writerIndex() + " bytes";
        buf.writeBytes(a.wire(), 0, a.wireLength());
        return buf;
    }

    /** A non-negative number in decimal ASCII, without a String. */
    static void decimal(ByteBuf buf, long value) {
        assert value >= 0 : value;
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        buf.ensureWritable(digits);
        int end = buf.writerIndex() + digits;
        long v = value;
        for (int i = end - 1; i >= end - digits; i--) {
            buf.setByte(i, '0' + (int) (v % 10));
            v /= 10;
        }
        buf.writerIndex(end);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
