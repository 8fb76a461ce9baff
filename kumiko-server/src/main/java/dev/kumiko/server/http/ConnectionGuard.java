package dev.kumiko.server.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Per-connection bounds that need no per-request state: at most connectionsMax open connections
 * (one more is closed at once), and no reading while the client does not read our responses, so
 * a client that pipelines requests and never reads cannot grow the outbound buffer without bound.
 */
@ChannelHandler.Sharable
final class ConnectionGuard extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(ConnectionGuard.class.getName());
    private final int connectionsMax;
    private final AtomicInteger open = new AtomicInteger();

    ConnectionGuard(int connectionsMax) {
        assert connectionsMax > 0;
        this.connectionsMax = connectionsMax;
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // closing is best effort: nothing waits on it
    public void channelActive(ChannelHandlerContext ctx) {
        int now = open.incrementAndGet();
        if (now > connectionsMax) {
            LOG.log(Level.FINE, "refusing a connection: {0} open, the limit is {1}", new Object[] {
                now - 1, connectionsMax
            });
            ctx.close();
            return;
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        int now = open.decrementAndGet();
        assert now >= 0;
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    int openConnections() {
        return open.get();
    }
}
