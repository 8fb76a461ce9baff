package dev.kumiko.server.http;

import dev.kumiko.server.auth.SigV4Signing;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import org.jspecify.annotations.Nullable;

/**
 * Keeps what a SigV4 signature covers before the pipeline changes it: the headers as sent (the
 * decompressor drops Content-Encoding and rewrites Content-Length) and the SHA-256 of the body as
 * sent (a gzip-encoded body is signed compressed). Sits between the HTTP codec and the
 * decompressor, only with {@code --auth=sigv4}. One instance per connection: HTTP/1.1 requests on a
 * connection arrive in order, and the aggregated request reaches the handler synchronously from
 * this handler's forwarding of its last chunk, so the channel attribute always belongs to it.
 */
final class SignedBytes extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<SignedBytes.Request> KEY = AttributeKey.valueOf("kumiko.signedBytes");

    /** The request's headers as sent and the hex SHA-256 of its body as sent. */
    record Request(HttpHeaders headers, String payloadSha256Hex) {}

    private final MessageDigest digest = SigV4Signing.sha256();
    /** The headers of the request whose body is arriving; null between requests. */
    private @Nullable HttpHeaders headers;

    static @Nullable Request of(Channel channel) {
        return channel.attr(KEY).get();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest r) {
            headers = r.headers().copy();
            digest.reset();
            ctx.channel().attr(KEY).set(null);
        }
        if (msg instanceof HttpContent c) {
            update(c.content());
            if (msg instanceof LastHttpContent && headers != null) {
                ctx.channel().attr(KEY).set(new Request(headers, SigV4Signing.hex(digest.digest())));
                headers = null;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void update(ByteBuf content) {
        for (ByteBuffer b : content.nioBuffers()) {
            digest.update(b);
        }
    }
}
