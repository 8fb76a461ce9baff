package dev.kumiko.server.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;

/**
 * The server's {@link InFlightBytes} on Netty's decoding path (SigV4, chunked or compressed bodies,
 * any request {@link PlainRequestDecoder} hands over): an assembled request takes its body's bytes
 * and goes on as an {@link AdmittedRequest}, or, past the budget, its body is freed at once and it
 * goes on as a {@link RefusedRequest}. This path counts a body only once it is assembled: while it
 * arrives it is bounded per connection (the aggregator's limit), and the plain path, which the SDKs'
 * unsigned and signed-but-unverified requests take, counts it from its header part on.
 */
@ChannelHandler.Sharable
final class InFlightGate extends ChannelInboundHandlerAdapter {
    private final InFlightBytes inFlight;

    InFlightGate(InFlightBytes inFlight) {
        this.inFlight = inFlight;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest req) || req.decoderResult().isFailure() || msg instanceof AdmittedRequest) {
            ctx.fireChannelRead(msg);
            return;
        }
        long bytes = req.content().readableBytes();
        if (inFlight.tryTake(bytes)) {
            ctx.fireChannelRead(AdmittedRequest.of(req, bytes));
            return;
        }
        RefusedRequest refused = new RefusedRequest(req.protocolVersion(), req.method(), req.uri(), req.headers());
        req.release();
        ctx.fireChannelRead(refused);
    }
}
