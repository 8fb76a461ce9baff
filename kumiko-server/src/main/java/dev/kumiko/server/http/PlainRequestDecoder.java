package dev.kumiko.server.http;

import dev.kumiko.server.ServerLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.FastThreadLocal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the requests DynamoDB's clients send (POST, HTTP/1.1, a body of Content-Length bytes) into
 * one {@code FullHttpRequest} each, in one pass. Netty's request decoder, decompressor and aggregator
 * take three pipeline steps, a header parser that validates as it goes, and a composite buffer for
 * the body: about 15 % of a GetItem's CPU on the server.
 *
 * <p>Any request that is not plain, judged on its first bytes and its header part, hands the
 * connection to those three for good (the {@code fallBack} given at construction installs them;
 * this decoder then removes itself and passes on every byte it has not decoded): another method or
 * version, chunked bodies, {@code Expect}, {@code Content-Encoding}, a missing or repeated
 * Content-Length, a body over the limit, a header part over Netty's limits, obsolete line folding,
 * bare LF, and any byte outside printable ASCII. So every refusal, and every rarer form of a
 * request, is answered by the code that answered it before; only what this decoder accepts is
 * decoded by it, and for that Netty's decoder would have built the same request.
 *
 * <p>A body's bytes are taken from the server's {@link InFlightBytes} as soon as its header part
 * is parsed, before the body arrives, and handed on with the request ({@link AdmittedRequest}); a
 * body that does not fit is read and dropped as it arrives, and its request handed on as a
 * {@link RefusedRequest}. Bytes taken for a body that never completes go back when the connection
 * closes.
 *
 * <p>Not used with SigV4: {@link SignedBytes} records the raw header lines behind Netty's decoder.
 */
final class PlainRequestDecoder extends ByteToMessageDecoder {
    private static final byte[] METHOD = "POST ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VERSION = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Netty's two limits together: the request line, then the header lines. */
    static final int HEAD_BYTES_MAX = ServerLimits.INITIAL_LINE_BYTES_MAX + ServerLimits.HEADER_BYTES_MAX;
    /** Content-Length digits: more than any body under the limit needs, and no overflow of a long. */
    private static final int LENGTH_DIGITS_MAX = 10;
    /** Header values are checked here, and names are tokens: Netty's validation would find nothing. */
    private static final HttpHeadersFactory HEADERS =
            DefaultHttpHeadersFactory.headersFactory().withNameValidation(false).withValueValidation(false);

    private static final FastThreadLocal<byte[]> HEAD = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[HEAD_BYTES_MAX];
        }
    };
    private static final FastThreadLocal<HeaderStrings> STRINGS = new FastThreadLocal<>() {
        @Override
        protected HeaderStrings initialValue() {
            return new HeaderStrings();
        }
    };
    /** Bytes allowed in a header name (RFC 9110's tchar). */
    private static final boolean[] TOKEN = tokenBytes();

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int bodyBytesMax;
    private final RequestDeadline deadline;
    private final Consumer<ChannelHandlerContext> fallBack;
    private final InFlightBytes inFlight;
    /** Bytes of inFlight taken for the pending request's body, not yet handed on with it. */
    private long heldBytes;
    /** The header part of a refused request whose body is being dropped, or null. */
    private @Nullable Head refused;
    /** Bytes of the refused request's body still to drop. */
    private int dropBytesLeft;
    /** Bytes of the request at the reader index already searched for the header part's end. */
    private int searchedBytes;
    /** The header part of the request at the reader index, parsed while its body is still arriving. */
    private @Nullable Head pending;

    /**
     * @param bodyBytesMax the largest body decoded here; a larger Content-Length is left to the
     *     aggregator, which answers it with the 413
     * @param deadline the connection's; armed here for a request that is not complete yet
     * @param fallBack installs Netty's decoding right behind this decoder's context
     * @param inFlight the server's budget of bodies in flight
     */
    PlainRequestDecoder(
            int bodyBytesMax,
            RequestDeadline deadline,
            Consumer<ChannelHandlerContext> fallBack,
            InFlightBytes inFlight) {
        assert bodyBytesMax > 0;
        this.bodyBytesMax = bodyBytesMax;
        this.deadline = deadline;
        this.fallBack = fallBack;
        this.inFlight = inFlight;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused != null) {
            drop(ctx, in, out);
            return;
        }
        Head parsed = pending != null ? pending : head(ctx, in);
        if (parsed == null) {
            return; // handed over, or the header part is not complete yet
        }
        if (pending == null && !inFlight.tryTake(parsed.contentLength)) {
            searchedBytes = 0;
            in.skipBytes(parsed.bytes);
            refused = parsed;
            dropBytesLeft = parsed.contentLength;
            drop(ctx, in, out);
            return;
        }
        heldBytes = parsed.contentLength;
        if (in.readableBytes() - parsed.bytes < parsed.contentLength) {
            pending = parsed;
            deadline.started(ctx); // the body is not complete yet
            return;
        }
        pending = null;
        searchedBytes = 0;
        in.skipBytes(parsed.bytes);
        ByteBuf content = in.readRetainedSlice(parsed.contentLength);
        out.add(new AdmittedRequest(parsed.uri, content, parsed.headers, EmptyHttpHeaders.INSTANCE, heldBytes));
        heldBytes = 0;
    }

    /** Drops what has come of the refused request's body; once all has, hands the request on. */
    private void drop(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int n = Math.min(dropBytesLeft, in.readableBytes());
        in.skipBytes(n);
        dropBytesLeft -= n;
        if (dropBytesLeft > 0) {
            deadline.started(ctx); // the body is not complete yet
            return;
        }
        Head r = java.util.Objects.requireNonNull(refused, "dropping the body of no request");
        out.add(new RefusedRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, r.uri, r.headers));
        refused = null;
    }

    /** A body that will not complete on this connection gives its bytes back. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        giveBack();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        giveBack();
    }

    private void giveBack() {
        if (heldBytes > 0) {
            inFlight.giveBack(heldBytes);
            heldBytes = 0;
        }
        pending = null;
    }

    /**
     * The header part at the reader index, parsed; null when it has not all arrived, or when the
     * request is not plain and the connection has been handed over.
     */
    private @Nullable Head head(ChannelHandlerContext ctx, ByteBuf in) {
        int headBytes = headBytes(in);
        if (headBytes == 0) {
            deadline.started(ctx);
            return null;
        }
        Head parsed = null;
        if (headBytes > 0) {
            byte[] head = HEAD.get();
            in.getBytes(in.readerIndex(), head, 0, headBytes);
            parsed = Head.parse(head, headBytes, bodyBytesMax, STRINGS.get());
        }
        if (parsed == null) {
            handOver(ctx);
        }
        return parsed;
    }

    /** Netty's decoding takes over this connection, from the first byte not decoded here. */
    private void handOver(ChannelHandlerContext ctx) {
        fallBack.accept(ctx);
        // ByteToMessageDecoder hands what it holds to the next handler when it is removed.
        ctx.pipeline().remove(this);
    }

    /**
     * The length of the header part at the reader index, through its empty line; 0 when it has not
     * all arrived, -1 when it is longer than Netty's limits or does not start as a plain request.
     */
    private int headBytes(ByteBuf in) {
        int readable = in.readableBytes();
        int start = in.readerIndex();
        for (int i = 0; i < Math.min(readable, METHOD.length); i++) {
            if (in.getByte(start + i) != METHOD[i]) {
                return -1;
            }
        }
        int limit = Math.min(readable, HEAD_BYTES_MAX);
        // Resume a little before where the last search stopped: the empty line may straddle reads.
        int from = Math.max(0, searchedBytes - 3);
        int at = from >= limit ? -1 : in.forEachByte(start + from, limit - from, ByteProcessor.FIND_LF);
        while (at >= 0) {
            int end = at - start + 1; // bytes through this LF
            if (end >= 4 && in.getByte(at - 1) == '\r' && in.getByte(at - 2) == '\n' && in.getByte(at - 3) == '\r') {
                return end;
            }
            at = end >= limit ? -1 : in.forEachByte(at + 1, limit - end, ByteProcessor.FIND_LF);
        }
        if (readable >= HEAD_BYTES_MAX) {
            return -1;
        }
        searchedBytes = readable;
        return 0;
    }

    /** A plain request's header part, or null (from {@link #parse}) for any other. */
    private static final class Head {
        /** The header part's length, through its empty line. */
        final int bytes;

        final String uri;
        final HttpHeaders headers;
        final int contentLength;

        private Head(int bytes, String uri, HttpHeaders headers, int contentLength) {
            this.bytes = bytes;
            this.uri = uri;
            this.headers = headers;
            this.contentLength = contentLength;
        }

        /** head[0, length) is a request line and header lines, each ending in CRLF, then CRLF. */
        static @Nullable Head parse(byte[] head, int length, int bodyBytesMax, HeaderStrings strings) {
            int uriEnd = uriEnd(head, length);
            if (uriEnd < 0 || !startsWith(head, uriEnd, VERSION)) {
                return null;
            }
            String uri = strings.of(head, METHOD.length, uriEnd);
            int lineStart = uriEnd + VERSION.length;
            if (lineStart > ServerLimits.INITIAL_LINE_BYTES_MAX) {
                return null;
            }
            HttpHeaders headers = HEADERS.newHeaders();
            long contentLength = -1;
            while (head[lineStart] != '\r') {
                int colon = nameEnd(head, lineStart);
                if (colon <= lineStart || head[colon] != ':') {
                    return null; // an empty name, a byte outside a token, or obsolete folding
                }
                int valueStart = skipBlanks(head, colon + 1);
                int lineEnd = valueEnd(head, valueStart);
                if (lineEnd < 0) {
                    return null;
                }
                int valueEnd = lineEnd;
                while (valueEnd > valueStart && isBlank(head[valueEnd - 1])) {
                    valueEnd--;
                }
                int special = special(head, lineStart, colon);
                if (special == SPECIAL_REFUSED) {
                    return null;
                }
                if (special == SPECIAL_CONTENT_LENGTH) {
                    if (contentLength >= 0) {
                        return null; // repeated: Netty decides what that means
                    }
                    contentLength = digits(head, valueStart, valueEnd);
                    if (contentLength < 0 || contentLength > bodyBytesMax) {
                        return null;
                    }
                }
                headers.add(strings.of(head, lineStart, colon), strings.of(head, valueStart, valueEnd));
                lineStart = lineEnd + 2;
            }
            if (contentLength < 0 || lineStart - uriEnd - VERSION.length > ServerLimits.HEADER_BYTES_MAX) {
                return null;
            }
            assert lineStart + 2 == length;
            return new Head(length, uri, headers, (int) contentLength);
        }

        /** Where the request target ends (at the space before the version), or -1. */
        private static int uriEnd(byte[] head, int length) {
            int i = METHOD.length;
            while (i < length && head[i] > ' ' && head[i] < 0x7F) {
                i++;
            }
            return i == METHOD.length || i >= length ? -1 : i;
        }

        private static int nameEnd(byte[] head, int i) {
            while (TOKEN[head[i] & 0xFF]) {
                i++;
            }
            return i;
        }

        private static int skipBlanks(byte[] head, int i) {
            while (isBlank(head[i])) {
                i++;
            }
            return i;
        }

        /**
         * The CR of the line's CRLF, or -1 for a byte outside printable ASCII and tab, or a bare CR.
         * Runs of printable bytes are skipped eight at a time (a header value scanned byte by byte
         * was 4 % of a GetItem's samples). A word may reach past the header part into stale bytes
         * of the buffer, but never past its line's CR, which is not printable and ends the skip.
         */
        private static int valueEnd(byte[] head, int i) {
            while (true) {
                if (i + Long.BYTES <= head.length && PrintableAscii.all((long) LONGS.get(head, i))) {
                    i += Long.BYTES;
                    continue;
                }
                byte b = head[i];
                if (b == '\r') {
                    return head[i + 1] == '\n' ? i : -1;
                }
                if (!((b >= ' ' && b < 0x7F) || b == '\t')) {
                    return -1;
                }
                i++;
            }
        }

        private static boolean isBlank(byte b) {
            return b == ' ' || b == '\t';
        }

        /** A decimal number without sign or blanks, or -1. */
        private static long digits(byte[] head, int from, int to) {
            if (to == from || to - from > LENGTH_DIGITS_MAX) {
                return -1;
            }
            long n = 0;
            for (int i = from; i < to; i++) {
                int d = head[i] - '0';
                if (d < 0 || d > 9) {
                    return -1;
                }
                n = n * 10 + d;
            }
            return n;
        }

        private static boolean startsWith(byte[] head, int at, byte[] prefix) {
            for (int i = 0; i < prefix.length; i++) {
                if (head[at + i] != prefix[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final int SPECIAL_NONE = 0;
    private static final int SPECIAL_CONTENT_LENGTH = 1;
    private static final int SPECIAL_REFUSED = 2;
    /** Headers that make a request other than plain: how its body is framed or encoded. */
    private static final byte[][] REFUSED = {ascii("transfer-encoding"), ascii("content-encoding"), ascii("expect")};

    private static final byte[] CONTENT_LENGTH = ascii("content-length");

    /** Whether the header name head[from, to) is Content-Length, one that is refused here, or another. */
    private static int special(byte[] head, int from, int to) {
        if (equalsLowerCase(head, from, to, CONTENT_LENGTH)) {
            return SPECIAL_CONTENT_LENGTH;
        }
        for (byte[] name : REFUSED) {
            if (equalsLowerCase(head, from, to, name)) {
                return SPECIAL_REFUSED;
            }
        }
        return SPECIAL_NONE;
    }

    /** ASCII case-insensitive equality with a lower-case name. */
    private static boolean equalsLowerCase(byte[] head, int from, int to, byte[] lower) {
        if (to - from != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            byte b = head[from + i];
            if (b >= 'A' && b <= 'Z') {
                b = (byte) (b + ('a' - 'A'));
            }
            if (b != lower[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static boolean[] tokenBytes() {
        boolean[] token = new boolean[256];
        for (int b = '0'; b <= '9'; b++) {
            token[b] = true;
        }
        for (int b = 'a'; b <= 'z'; b++) {
            token[b] = true;
            token[b - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            token[c] = true;
        }
        return token;
    }
}
