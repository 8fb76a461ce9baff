package dev.kumiko.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * Netty's response encoder, except that a ByteBuf passes through as it is: it is a whole response
 * already encoded ({@link WireResponse}). The server writes no other bare buffers, and no
 * chunked bodies.
 */
final class AnswerEncoder extends HttpResponseEncoder {
    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return !(msg instanceof ByteBuf) && super.acceptOutboundMessage(msg);
    }
}
