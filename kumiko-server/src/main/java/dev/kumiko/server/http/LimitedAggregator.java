package dev.kumiko.server.http;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Assembles a request body of at most maxBytes (counted after decompression, since it follows the
 * decompressor) and answers an oversized one with a DynamoDB-shaped 413 instead of Netty's bare one.
 */
final class LimitedAggregator extends HttpObjectAggregator {
    private final int maxBytes;

    LimitedAggregator(int maxBytes) {
        super(maxBytes);
        this.maxBytes = maxBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        ctx.writeAndFlush(tooLarge(maxBytes)).addListener(ChannelFutureListener.CLOSE);
    }

    /** The 413 for a body over the limit; it closes the connection, as the rest of the body is unread. */
    static FullHttpResponse tooLarge(int maxBytes) {
        // UNVERIFIED wording: no public capture of DynamoDB's body for an oversized request.
        DynamoException e = new DynamoException(
                ErrorCode.REQUEST_TOO_LARGE, "Request size exceeds the maximum allowed size of " + maxBytes + " bytes");
        byte[] body = ErrorBodies.of(e);
        FullHttpResponse r = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, DynamoHandler.contentType());
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        r.headers().set(Responses.REQUEST_ID, RequestIds.next());
        r.headers().set(Responses.CRC32, Long.toString(Responses.crc32(body)));
        r.headers().set(HttpHeaderNames.CONNECTION, "close");
        return r;
    }
}
