package dev.kumiko.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One connection's deadline for receiving a request: armed by the first byte of a request, disarmed
 * by its last, and the connection is closed if it fires. A read timeout alone does not stop a client
 * that sends one byte just before each timeout (slowloris); a deadline does. Two handlers share it:
 * {@link #firstByte()} sits before the HTTP decoder (it sees raw bytes, headers included) and
 * {@link #lastByte()} after it (it sees where a request ends). All on the channel's event loop.
 */
final class RequestDeadline {
    private static final Logger LOG = Logger.getLogger(RequestDeadline.class.getName());
    private final long timeoutMillis;
    private ScheduledFuture<?> pending;

    RequestDeadline(long timeoutMillis) {
        assert timeoutMillis > 0;
        this.timeoutMillis = timeoutMillis;
    }

    ChannelInboundHandlerAdapter firstByte() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof ByteBuf b && b.isReadable()) {
                    arm(ctx);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                disarm();
                ctx.fireChannelInactive();
            }
        };
    }

    ChannelInboundHandlerAdapter lastByte() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                // A pipelined request whose head arrived with the previous one's tail starts here.
                if (msg instanceof HttpRequest) {
                    arm(ctx);
                }
                if (msg instanceof LastHttpContent) {
                    disarm();
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    private void arm(ChannelHandlerContext ctx) {
        if (pending == null) {
            pending = ctx.executor().schedule(() -> expire(ctx), timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void disarm() {
        if (pending != null) {
            pending.cancel(false);
            pending = null;
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        pending = null;
        LOG.log(Level.FINE, "closing {0}: request not received within {1} ms",
                new Object[] {ctx.channel().remoteAddress(), timeoutMillis});
        ctx.channel().close();
    }
}
