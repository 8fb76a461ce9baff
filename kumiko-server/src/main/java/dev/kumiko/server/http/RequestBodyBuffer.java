package dev.kumiko.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The bytes of a request body for the parser, without a new array per request: a heap buffer's own
 * array, else a copy into the thread's buffer. The parser copies everything it keeps (strings,
 * decoded binary), so the buffer is free again as soon as the body is parsed.
 */
final class RequestBodyBuffer {
    /** Bodies bigger than this get an array of their own, so that no thread keeps a large buffer. */
    static final int RETAINED_BYTES_MAX = 64 * 1024;

    private static final int INITIAL_BYTES = 4 * 1024;
    private static final FastThreadLocal<byte[]> BUFFER = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[INITIAL_BYTES];
        }
    };

    /** A view of a body: bytes[offset, offset + length). */
    record Bytes(byte[] bytes, int offset, int length) {}

    private RequestBodyBuffer() {}

    /** Valid until the calling thread asks again. */
    static Bytes of(ByteBuf content) {
        int length = content.readableBytes();
        if (content.hasArray()) {
            return new Bytes(content.array(), content.arrayOffset() + content.readerIndex(), length);
        }
        byte[] buffer = length <= RETAINED_BYTES_MAX ? threadBuffer(length) : new byte[length];
        content.getBytes(content.readerIndex(), buffer, 0, length);
        return new Bytes(buffer, 0, length);
    }

    private static byte[] threadBuffer(int length) {
        byte[] buffer = BUFFER.get();
        if (buffer.length < length) {
            buffer = new byte[Math.min(RETAINED_BYTES_MAX, Math.max(length, buffer.length * 2))];
            BUFFER.set(buffer);
        }
        return buffer;
    }
}
