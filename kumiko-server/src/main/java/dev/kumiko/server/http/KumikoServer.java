package dev.kumiko.server.http;

import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.protocol.Operations;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP/1.1 server: keep-alive, pipelining, gzip/deflate request bodies, and the bounds of
 * {@link ServerLimits} on every connection (size, time, count); optionally TLS and SigV4
 * verification (see {@link ServerConfig}).
 */
public final class KumikoServer implements AutoCloseable {
    private final ServerConfig config;
    private final ConnectionGuard guard;
    private final InFlightBytes inFlight;
    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers;
    /** Threads that run requests when the store blocks on the network; null for a local store. */
    private @Nullable EventExecutorGroup blockingWork;
    /** Null until started. */
    private @Nullable Channel channel;

    /**
     * Request threads for a remote store: each waits on the network, so there are more of them than
     * cores. A local store answers from memory or local disk in microseconds and runs inline on
     * the event loop, which measured faster than handing each request to another thread.
     */
    static final int BLOCKING_THREADS = 64;

    private static final String HTTP_DECODER = "http";
    private static final String HANDLER = "dynamo";
    private static final String LAST_BYTE = "lastByte";

    public KumikoServer(ServerConfig config) {
        this.config = config;
        this.guard = new ConnectionGuard(config.limits().connectionsMax());
        this.inFlight = new InFlightBytes(config.limits().inFlightBytesMax());
        this.workers = new NioEventLoopGroup(config.eventLoopThreads());
    }

    public KumikoServer start(Operations operations) throws InterruptedException {
        return start(operations, RequestHooks.NONE);
    }

    /** Serves with {@code hooks} told about every request (metrics, request log, console paths). */
    public KumikoServer start(Operations operations, RequestHooks hooks) throws InterruptedException {
        DynamoHandler handler = new DynamoHandler(operations, config, hooks, inFlight);
        blockingWork = operations.storeIsLocal() ? null : new DefaultEventExecutorGroup(BLOCKING_THREADS);
        ServerLimits limits = config.limits();
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.ALLOCATOR, BufferPool.SHARED)
                .childOption(ChannelOption.ALLOCATOR, BufferPool.SHARED)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        RequestDeadline deadline = new RequestDeadline(limits.requestTimeoutMillis());
                        ch.pipeline().addLast(guard).addLast(new IdleClose(limits.idleTimeoutMillis()));
                        if (config.tls() != null) {
                            ch.pipeline().addLast(config.tls().newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(deadline.firstByte()).addLast(new AnswerEncoder());
                        if (config.sigV4()) {
                            InFlightGate gate = new InFlightGate(inFlight, limits.requestBytesMax());
                            ch.pipeline()
                                    .addLast(HTTP_DECODER, requestDecoder())
                                    .addLast(LAST_BYTE, deadline.lastByte())
                                    .addLast(new SignedBytes())
                                    .addLast(gate.head())
                                    .addLast(new BoundedDecompressor(limits.requestBytesMax()))
                                    .addLast(new LimitedAggregator(limits.requestBytesMax()))
                                    .addLast(gate.tail())
                                    .addLast(blockingWork, HANDLER, handler);
                            return;
                        }
                        // Plain requests skip Netty's decoder, decompressor and aggregator; the first
                        // other request on a connection puts them back for its remaining life.
                        ch.pipeline()
                                .addLast(new PlainRequestDecoder(
                                        limits.requestBytesMax(),
                                        deadline,
                                        plain -> addNettyDecoding(plain, limits, inFlight),
                                        inFlight))
                                .addLast(LAST_BYTE, deadline.lastByte())
                                .addLast(blockingWork, HANDLER, handler);
                    }
                });
        channel = b.bind(config.host(), config.port()).sync().channel();
        return this;
    }

    /** Netty's decoding behind a {@link PlainRequestDecoder} that is handing its connection over. */
    private static void addNettyDecoding(ChannelHandlerContext plain, ServerLimits limits, InFlightBytes inFlight) {
        ChannelPipeline p = plain.pipeline();
        InFlightGate gate = new InFlightGate(inFlight, limits.requestBytesMax());
        p.addAfter(plain.name(), HTTP_DECODER, requestDecoder());
        // Behind the deadline's last-byte handler, which must see the end of a body this one drops.
        p.addAfter(LAST_BYTE, null, gate.head());
        p.addBefore(HANDLER, null, new BoundedDecompressor(limits.requestBytesMax()));
        p.addBefore(HANDLER, null, new LimitedAggregator(limits.requestBytesMax()));
        p.addBefore(HANDLER, null, gate.tail());
    }

    private static HttpRequestDecoder requestDecoder() {
        return new HttpRequestDecoder(
                ServerLimits.INITIAL_LINE_BYTES_MAX, ServerLimits.HEADER_BYTES_MAX, ServerLimits.CHUNK_BYTES_MAX);
    }

    /** Client connections open now. */
    public int openConnections() {
        return guard.openConnections();
    }

    /** Bytes of request bodies held now (0 when the server is idle: every request gave its bytes back). */
    public long inFlightBytes() {
        return inFlight.held();
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return ((InetSocketAddress)
                        Objects.requireNonNull(channel, "port() before start()").localAddress())
                .getPort();
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        if (blockingWork != null) {
            blockingWork
                    .shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS)
                    .syncUninterruptibly();
        }
    }
}
