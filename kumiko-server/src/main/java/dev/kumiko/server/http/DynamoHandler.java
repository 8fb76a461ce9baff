package dev.kumiko.server.http;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.error.ThroughputExceeded;
import dev.kumiko.server.auth.SigV4Verifier;
import dev.kumiko.server.policy.RequestAuthorizer;
import dev.kumiko.server.protocol.AdminOperations;
import dev.kumiko.server.protocol.CallContext;
import dev.kumiko.server.protocol.Operation;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.server.protocol.RequestBodies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One DynamoDB request in, one response out: routing by X-Amz-Target, the SigV4 region, JSON
 * decode, the engine, and the response headers the SDKs expect (x-amzn-RequestId, x-amz-crc32).
 * Stateless and shared by every connection.
 */
@ChannelHandler.Sharable
final class DynamoHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = Logger.getLogger(DynamoHandler.class.getName());
    static final String TARGET_PREFIX = "DynamoDB_20120810.";
    static final String STREAMS_TARGET_PREFIX = "DynamoDBStreams_20120810.";
    private static final String CONTENT_TYPE = "application/x-amz-json-1.0";

    private final Operations operations;
    private final ServerConfig config;
    private final RequestHooks hooks;
    private final InFlightBytes inFlight;

    DynamoHandler(Operations operations, ServerConfig config, RequestHooks hooks, InFlightBytes inFlight) {
        this.operations = operations;
        this.config = config;
        this.hooks = hooks;
        this.inFlight = inFlight;
    }

    /** Set on a connection whose last answer closes it: later requests on it are not served. */
    private static final AttributeKey<Boolean> CLOSING = AttributeKey.valueOf("kumiko.closing");

    /** Every admitted request gives its body's bytes back once answered, however its answer went. */
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        try {
            serve(ctx, req);
        } finally {
            if (req instanceof AdmittedRequest admitted) {
                inFlight.giveBack(admitted.heldBytes());
            }
        }
    }

    private void serve(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (req.decoderResult().isFailure()) {
            // Netty hands on what it could not decode (a request line or headers over the limits,
            // broken chunking) as a stand-in GET request; answering it would be a 200 health check.
            transportError(ctx, req.decoderResult().cause());
            return;
        }
        if (Boolean.TRUE.equals(ctx.channel().attr(CLOSING).get())) {
            return; // a request pipelined behind one answered "connection: close" (see below)
        }
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (!keepAlive) {
            // The connection closes once this answer is written. Over a remote store, requests are
            // served off the event loop, so one pipelined behind this could be served and answered
            // before the close: read nothing more, and drop what was read already.
            ctx.channel().attr(CLOSING).set(Boolean.TRUE);
            ctx.channel().config().setAutoRead(false);
        }
        ChannelFuture written;
        if (req instanceof RefusedRequest) {
            written = ctx.writeAndFlush(refuse(ctx, req, keepAlive));
        } else if (isDynamoCall(req)) {
            written = ctx.writeAndFlush(call(ctx, req, keepAlive, Cors.applies(req)));
        } else {
            FullHttpResponse response = respond(req);
            HttpUtil.setKeepAlive(response, keepAlive);
            Cors.addHeaders(req, response.headers());
            if (HttpMethod.HEAD.equals(req.method())) {
                // HTTP's rule: the headers a GET would get, no body (the encoder does not know the method).
                FullHttpResponse head = response.replace(Unpooled.EMPTY_BUFFER);
                response.release();
                response = head;
            }
            written = ctx.writeAndFlush(response);
        }
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** A JSON POST to DynamoDB's or DynamoDB Streams' endpoint (not the admin paths). */
    private static boolean isDynamoCall(FullHttpRequest req) {
        return HttpMethod.POST.equals(req.method())
                && !req.uri().startsWith(AdminOperations.PREFIX)
                && HttpEdge.isJsonContentType(req.headers());
    }

    /** Everything but a DynamoDB call: CORS preflight, admin paths, GET paths, and 404 for the rest. */
    private FullHttpResponse respond(FullHttpRequest req) {
        if (HttpMethod.OPTIONS.equals(req.method())) {
            return Cors.preflight(req);
        }
        if (req.uri().startsWith(AdminOperations.PREFIX)) {
            return admin(req);
        }
        if (HttpMethod.GET.equals(req.method())) {
            FullHttpResponse extra = hooks.get(req);
            if (extra != null) {
                return extra;
            }
            if ("/".equals(new QueryStringDecoder(req.uri()).path())) {
                return health(req);
            }
        }
        return HttpEdge.notFound();
    }

    /**
     * The answer to a DynamoDB call, as the bytes to send. A body is written into the answer's
     * buffer from the thread's response buffer, where the operation left it, without a copy of its own.
     */
    private ByteBuf call(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive, boolean cors) {
        String requestId = RequestIds.next();
        hooks.begin();
        ByteBuf answer = null;
        try {
            answer = handlePost(
                    ctx,
                    req,
                    requestId,
                    (body, length) -> WireResponse.encode(
                            ctx.alloc(),
                            Responses.answer(
                                    HttpResponseStatus.OK,
                                    body,
                                    length,
                                    requestId,
                                    req,
                                    config.compressionThresholdBytes()),
                            keepAlive,
                            cors));
            hooks.end(null);
            return answer;
        } catch (DynamoException e) {
            release(answer);
            hooks.end(e);
            return WireResponse.encode(ctx.alloc(), errorAnswer(e, requestId, req), keepAlive, cors);
        } catch (RuntimeException | StackOverflowError | AssertionError | LinkageError e) {
            release(answer);
            // A broken invariant or a bad class path is the server's fault: a 500, not a 400 that
            // exceptionCaught would give it as a transport error.
            LOG.log(Level.SEVERE, "internal error answering " + req.headers().get("X-Amz-Target"), e);
            DynamoException internal = new DynamoException(
                    ErrorCode.INTERNAL_FAILURE,
                    "The server encountered an " + "internal error trying to fulfill the request");
            hooks.end(internal);
            return WireResponse.encode(ctx.alloc(), errorAnswer(internal, requestId, req), keepAlive, cors);
        }
    }

    /** The 503 for a request past the bound on bytes in flight; counted by the hooks as any answer. */
    private ByteBuf refuse(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive) {
        hooks.begin();
        DynamoException e = inFlight.refusal();
        hooks.end(e);
        return WireResponse.encode(ctx.alloc(), errorAnswer(e, RequestIds.next(), req), keepAlive, Cors.applies(req));
    }

    /** An answer made before a later step failed is not sent: its buffer goes back to the pool. */
    private static void release(@Nullable ByteBuf answer) {
        if (answer != null) {
            answer.release();
        }
    }

    private <A> A handlePost(
            ChannelHandlerContext ctx, FullHttpRequest req, String requestId, Operations.BodyReader<A> reader) {
        HttpHeaders h = req.headers();
        String target = h.get("X-Amz-Target");
        boolean streams = target != null && target.startsWith(STREAMS_TARGET_PREFIX);
        Operation.Api api = streams ? Operation.Api.STREAMS : Operation.Api.DYNAMODB;
        String host = h.get(HttpHeaderNames.HOST);
        SigV4Verifier verifier = config.verifier();
        if (verifier != null) {
            // A request is authenticated before anything about it is judged, as in DynamoDB.
            SigV4Verifier.Verified who = verify(ctx, req, verifier);
            String operation = streams ? target.substring(STREAMS_TARGET_PREFIX.length()) : operationOf(target);
            CallContext call = new CallContext(new RequestContext(who.region()), requestId, who.key(), host);
            return dispatch(
                    api,
                    operation,
                    req,
                    call,
                    Objects.requireNonNull(config.authorizer(), "a verified request is always authorized"),
                    reader);
        }
        String operation = streams ? target.substring(STREAMS_TARGET_PREFIX.length()) : operationOf(target);
        String region = SigV4Header.region(h.get(HttpHeaderNames.AUTHORIZATION));
        CallContext call = new CallContext(new RequestContext(region), requestId, null, host);
        return dispatch(api, operation, req, call, RequestAuthorizer.ALLOW_ALL, reader);
    }

    /** Decodes the body once, names the call for metrics and the request log, and runs it. */
    private <A> A dispatch(
            Operation.Api api,
            String operation,
            FullHttpRequest req,
            CallContext call,
            RequestAuthorizer authorizer,
            Operations.BodyReader<A> reader) {
        Map<String, Object> body = body(operation, req);
        hooks.named(operation, body);
        // TagResource and UntagResource answer an empty body, as DynamoDB does.
        Operations.BodyReader<A> sent =
                HttpEdge.answersEmptyBody(operation) ? (buffer, length) -> reader.read(buffer, 0) : reader;
        return operations.handle(api, operation, body, call, authorizer, sent);
    }

    private static Map<String, Object> body(String operation, FullHttpRequest req) {
        RequestBodyBuffer.Bytes body = RequestBodyBuffer.of(req.content());
        return RequestBodies.parse(operation, body.bytes(), body.offset(), body.length());
    }

    /** Checks the signature over the request as sent (headers and body before decompression). */
    private static SigV4Verifier.Verified verify(
            ChannelHandlerContext ctx, FullHttpRequest req, SigV4Verifier verifier) {
        SignedBytes.Request sent = SignedBytes.of(ctx.channel());
        if (sent == null) {
            // Only a request the HTTP decoder gave up on arrives without its bytes recorded.
            throw DynamoException.serialization("The request could not be read");
        }
        String uri = req.uri();
        int q = uri.indexOf('?');
        return verifier.verify(new SigV4Verifier.SignedRequest(
                req.method().name(),
                q < 0 ? uri : uri.substring(0, q),
                q < 0 ? null : uri.substring(q + 1),
                sent.headers()::getAll,
                sent.payloadSha256Hex()));
    }

    /**
     * The operation name, or DynamoDB's UnknownOperationException for a missing or foreign target.
     * DynamoDB Streams targets are routed before this.
     */
    static String operationOf(String target) {
        if (target == null || !target.startsWith(TARGET_PREFIX)) {
            throw new DynamoException(ErrorCode.UNKNOWN_OPERATION, null);
        }
        return target.substring(TARGET_PREFIX.length());
    }

    /**
     * Kumiko's admin endpoints: no signature, plain JSON, 404 for an unknown path. With --auth=sigv4
     * they are off (403): they move time and delete data, and no DynamoDB key or policy can grant them.
     */
    private FullHttpResponse admin(FullHttpRequest req) {
        String requestId = RequestIds.next();
        if (config.sigV4()) {
            byte[] refused = ("{\"message\":\"Kumiko's admin endpoints are disabled when the server runs with "
                            + "--auth=sigv4\"}")
                    .getBytes(StandardCharsets.UTF_8);
            return Responses.json(HttpResponseStatus.FORBIDDEN, refused, requestId, req, Integer.MAX_VALUE);
        }
        try {
            ByteBuf content = req.content();
            byte[] bytes = new byte[content.readableBytes()];
            content.getBytes(content.readerIndex(), bytes);
            String path = new QueryStringDecoder(req.uri()).path();
            CallContext call = new CallContext(
                    new RequestContext(config.defaultRegion()),
                    requestId,
                    null,
                    req.headers().get(HttpHeaderNames.HOST));
            byte[] body = operations.handleAdmin(req.method().name(), path, bytes, call);
            if (body == null) {
                byte[] notFound = ("{\"message\":\"No admin endpoint "
                                + req.method().name() + " " + path + "\"}")
                        .getBytes(StandardCharsets.UTF_8);
                return Responses.json(HttpResponseStatus.NOT_FOUND, notFound, requestId, req, Integer.MAX_VALUE);
            }
            return Responses.json(HttpResponseStatus.OK, body, requestId, req, config.compressionThresholdBytes());
        } catch (DynamoException e) {
            return error(e, requestId, req);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "internal error answering " + req.uri(), e);
            return error(
                    new DynamoException(
                            ErrorCode.INTERNAL_FAILURE,
                            "The server encountered an internal error " + "trying to fulfill the request"),
                    requestId,
                    req);
        }
    }

    /** DynamoDB's health answer names the host the request was sent to. */
    private FullHttpResponse health(FullHttpRequest req) {
        String host = req.headers().get(HttpHeaderNames.HOST);
        if (host == null) {
            host = "dynamodb." + config.defaultRegion() + ".amazonaws.com";
        }
        byte[] text = ("healthy: " + host + " ").getBytes(StandardCharsets.US_ASCII);
        FullHttpResponse r =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(text));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, text.length);
        r.headers().set(Responses.REQUEST_ID, RequestIds.next());
        r.headers().set(Responses.CRC32, Long.toString(Responses.crc32(text)));
        Responses.common(r.headers());
        return r;
    }

    private FullHttpResponse error(DynamoException e, String requestId, FullHttpRequest req) {
        return errorAnswer(e, requestId, req).toResponse();
    }

    private static JsonAnswer errorAnswer(DynamoException e, String requestId, FullHttpRequest req) {
        // Only a throttled request names resources by ARN; its Authorization header was parsed already.
        String region = e instanceof ThroughputExceeded
                ? SigV4Header.region(req.headers().get(HttpHeaderNames.AUTHORIZATION))
                : null;
        byte[] body = ErrorBodies.of(e, region);
        return Responses.answer(
                HttpResponseStatus.valueOf(ErrorStatuses.of(e.code())), body, requestId, req, Integer.MAX_VALUE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        transportError(ctx, cause);
    }

    /**
     * Broken framing or compression: answer once with a client error and drop the connection, since
     * the byte stream can no longer be trusted.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // closing is best effort: nothing waits on it
    private void transportError(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(Level.FINE, "closing connection after a transport error", cause);
        if (isTlsFailure(cause)) {
            // Plain HTTP to a TLS port, or a failed handshake: there is no channel to answer on.
            ctx.close();
            return;
        }
        if (!ctx.channel().isActive()
                || Boolean.TRUE.equals(ctx.channel().attr(CLOSING).get())) {
            return; // closed, or closing after an answer already written (see serve)
        }
        ctx.channel().attr(CLOSING).set(Boolean.TRUE);
        ctx.channel().config().setAutoRead(false);
        if (BoundedDecompressor.isOutputExhausted(cause)) {
            ctx.writeAndFlush(LimitedAggregator.tooLarge(config.limits().requestBytesMax()))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        DynamoException e = DynamoException.serialization(
                "The request could not be read: " + cause.getClass().getSimpleName());
        FullHttpResponse r = Responses.json(
                HttpResponseStatus.BAD_REQUEST, ErrorBodies.of(e), RequestIds.next(), null, Integer.MAX_VALUE);
        // Say so: without "Connection: close" a pooling client reuses the socket we are closing
        // and its next request fails with no response at all.
        HttpUtil.setKeepAlive(r, false);
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }

    private static boolean isTlsFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException) {
                return true;
            }
        }
        return false;
    }

    static String contentType() {
        return CONTENT_TYPE;
    }
}
