package dev.kumiko.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection on which nothing moved for idleTimeoutMillis: no byte read and no response
 * byte taken by the client (output progress counts, so a slow reader of a large response is kept,
 * and one that stopped reading is not kept forever).
 */
final class IdleClose extends IdleStateHandler {
    IdleClose(long idleTimeoutMillis) {
        super(true, 0, 0, idleTimeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // closing is best effort: nothing waits on it
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) {
        ctx.close();
    }
}
