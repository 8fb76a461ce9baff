package dev.kumiko.server.http;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.server.protocol.Operations;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContentDecompressor;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;

/**
 * The HTTP/1.1 server: keep-alive, pipelining, gzip/deflate request bodies, a request-size limit;
 * optionally TLS and SigV4 verification (see {@link ServerConfig}).
 */
public final class KumikoServer implements AutoCloseable {
    private static final int HEADER_BYTES_MAX = 16 * 1024;
    private final ServerConfig config;
    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers = new NioEventLoopGroup();
    private Channel channel;

    public KumikoServer(ServerConfig config) {
        this.config = config;
    }

    public KumikoServer start(Operations operations) throws InterruptedException {
        DynamoHandler handler = new DynamoHandler(operations, config);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (config.tls() != null) {
                            ch.pipeline().addLast(config.tls().newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(4096, HEADER_BYTES_MAX, 64 * 1024));
                        if (config.sigV4()) {
                            ch.pipeline().addLast(new SignedBytes());
                        }
                        ch.pipeline()
                                .addLast(new HttpContentDecompressor())
                                .addLast(new LimitedAggregator(config.requestBytesMax()))
                                .addLast(handler);
                    }
                });
        channel = b.bind(config.host(), config.port()).sync().channel();
        return this;
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Answers an oversized body with a DynamoDB-shaped 413 instead of Netty's bare one. */
    private static final class LimitedAggregator extends HttpObjectAggregator {
        private final int maxBytes;

        LimitedAggregator(int maxBytes) {
            super(maxBytes);
            this.maxBytes = maxBytes;
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            // UNVERIFIED wording: no public capture of DynamoDB's body for an oversized request.
            DynamoException e = new DynamoException(ErrorCode.REQUEST_TOO_LARGE,
                    "Request size " + "exceeds the maximum allowed size of " + maxBytes + " bytes");
            byte[] body = ErrorBodies.of(e);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Unpooled.wrappedBuffer(body));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, DynamoHandler.contentType());
            r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            r.headers().set("x-amzn-RequestId", RequestIds.next());
            r.headers().set("x-amz-crc32", Long.toString(Responses.crc32(body)));
            r.headers().set(HttpHeaderNames.CONNECTION, "close");
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
