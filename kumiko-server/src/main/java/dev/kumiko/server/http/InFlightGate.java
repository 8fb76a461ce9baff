package dev.kumiko.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * The server's {@link InFlightBytes} on one connection that Netty's decoding serves (SigV4, chunked
 * or compressed bodies, any request {@link PlainRequestDecoder} hands over). Two handlers share
 * it, like {@link RequestDeadline}: {@link #head()} right behind the HTTP decoder, which takes a
 * request's bytes when its header part arrives, before the body does, and {@link #tail()} behind
 * the aggregator, which hands the assembled request on as an {@link AdmittedRequest} holding them.
 *
 * <p>What a request takes: its Content-Length when its body is sent as is; otherwise (chunked, or
 * compressed, whose size is known only once inflated) the most a body may be, the per-request
 * limit. A request that does not fit has its body dropped piece by piece as it arrives and goes on
 * as a {@link RefusedRequest}, past the decompressor and the aggregator, which pass a full request
 * through. Bytes taken for requests not yet handed on go back when the connection closes (a client
 * gone, the deadline, the aggregator's 413). All on the channel's event loop.
 */
final class InFlightGate {
    private final InFlightBytes inFlight;
    private final long bodyBytesMax;
    /** Bytes taken by each request whose header part has passed, oldest first, until handed on. */
    private final ArrayDeque<Long> taken = new ArrayDeque<>(2);
    /** The header part of the request whose body is being dropped, or null. */
    private @Nullable HttpRequest refused;

    InFlightGate(InFlightBytes inFlight, long bodyBytesMax) {
        this.inFlight = inFlight;
        this.bodyBytesMax = bodyBytesMax;
    }

    ChannelInboundHandlerAdapter head() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                onHead(ctx, msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                giveBackAll();
                ctx.fireChannelInactive();
            }

            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                giveBackAll();
            }
        };
    }

    ChannelInboundHandlerAdapter tail() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof FullHttpRequest req
                        && !(msg instanceof RefusedRequest)
                        && req.decoderResult().isSuccess()) {
                    Long bytes = taken.poll();
                    assert bytes != null : "an assembled request whose header part took nothing";
                    ctx.fireChannelRead(AdmittedRequest.of(req, bytes == null ? 0 : bytes));
                    return;
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    private void onHead(ChannelHandlerContext ctx, Object msg) {
        HttpRequest dropping = refused;
        if (dropping != null) {
            if (msg instanceof HttpContent c) {
                boolean last = msg instanceof LastHttpContent;
                c.release();
                if (last) {
                    refused = null;
                    ctx.fireChannelRead(new RefusedRequest(
                            dropping.protocolVersion(),
                            dropping.method(),
                            dropping.uri(),
                            bodiless(dropping.headers())));
                }
                return;
            }
            assert false : "a request's parts interleaved with another's";
        }
        // A request Netty could not decode arrives whole, marked failed: the handler answers it.
        if (!(msg instanceof HttpRequest r)
                || msg instanceof FullHttpRequest
                || r.decoderResult().isFailure()) {
            ctx.fireChannelRead(msg);
            return;
        }
        long bytes = bytesOf(r);
        if (inFlight.tryTake(bytes)) {
            taken.add(bytes);
            ctx.fireChannelRead(msg);
            return;
        }
        refused = r;
    }

    /**
     * The headers of a refused request as those of the empty body it now has, so that the
     * decompressor and the aggregator pass it through as it is.
     */
    private static HttpHeaders bodiless(HttpHeaders sent) {
        HttpHeaders h = sent.copy();
        h.remove(HttpHeaderNames.CONTENT_ENCODING);
        h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        h.set(HttpHeaderNames.CONTENT_LENGTH, 0);
        return h;
    }

    /** 0 without a body; a body's Content-Length when it is sent as is; else the most a body may be. */
    private long bytesOf(HttpRequest r) {
        boolean chunked = HttpUtil.isTransferEncodingChunked(r);
        long length = HttpUtil.getContentLength(r, -1L);
        if (!chunked && length < 0) {
            return 0;
        }
        boolean encoded = r.headers().contains(HttpHeaderNames.CONTENT_ENCODING)
                && !r.headers().contains(HttpHeaderNames.CONTENT_ENCODING, HttpHeaderValues.IDENTITY, true);
        return chunked || encoded ? bodyBytesMax : Math.min(length, bodyBytesMax);
    }

    private void giveBackAll() {
        for (Long bytes = taken.poll(); bytes != null; bytes = taken.poll()) {
            inFlight.giveBack(bytes);
        }
    }
}
