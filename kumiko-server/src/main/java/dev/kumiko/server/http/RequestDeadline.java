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
import org.jspecify.annotations.Nullable;

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
    private final long timeoutNanos;
    /** A request is being received: its first byte has come, its last not yet. */
    private boolean armed;

    private long deadlineNanos;
    /**
     * At most one timer per connection, left running across requests: a request arms and disarms
     * with two field writes, and the timer, when it fires early (for a deadline since moved on),
     * re-schedules itself for the rest. A keep-alive connection pays one timer per timeout period,
     * not one per request.
     */
    private @Nullable ScheduledFuture<?> timer;

    RequestDeadline(long timeoutMillis) {
        assert timeoutMillis > 0;
        this.timeoutMillis = timeoutMillis;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
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
                stop();
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
                    armed = false;
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    /**
     * A request has begun: for a decoder that holds the start of a pipelined request, which arrived
     * in the same read as the end of the one before (the first byte's arming was spent on that one).
     */
    void started(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            arm(ctx); // not for the partial request a decoder is handed when the connection closes
        }
    }

    private void arm(ChannelHandlerContext ctx) {
        if (armed) {
            return;
        }
        armed = true;
        deadlineNanos = System.nanoTime() + timeoutNanos;
        if (timer == null) {
            schedule(ctx, timeoutNanos);
        }
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        timer = ctx.executor().schedule(() -> fire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // closing is best effort: nothing waits on it
    private void fire(ChannelHandlerContext ctx) {
        timer = null;
        if (!armed) {
            return; // between requests: the next one starts a timer of its own
        }
        long leftNanos = deadlineNanos - System.nanoTime();
        if (leftNanos > 0) {
            schedule(ctx, leftNanos);
            return;
        }
        armed = false;
        LOG.log(Level.FINE, "closing {0}: request not received within {1} ms", new Object[] {
            ctx.channel().remoteAddress(), timeoutMillis
        });
        ctx.channel().close();
    }

    private void stop() {
        armed = false;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
