package dev.kumiko.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.compression.JdkZlibDecoder;
import io.netty.handler.codec.compression.ZlibWrapper;
import io.netty.handler.codec.http.HttpContentDecompressor;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Request bodies in gzip or deflate (what the SDKs send), with the output of one decoding step
 * bounded: without a bound, one 64 KB piece of a gzip bomb inflates to 64 MB before the aggregator
 * behind can count it. Other encodings (br, zstd, snappy) are left undecoded, so the body fails to
 * parse as JSON: a client error, and no decoder whose memory use we have not bounded.
 */
final class BoundedDecompressor extends HttpContentDecompressor {
    private static final String EXHAUSTED = "maximum size";
    /** More layers than any client applies; each layer costs a decoder. */
    static final int CODINGS_MAX = 4;

    private final int outputBytesMax;

    BoundedDecompressor(int outputBytesMax) {
        this.outputBytesMax = outputBytesMax;
    }

    /**
     * One decoder per listed coding. HTTP lists codings in the order they were applied
     * ({@code gzip, gzip} is gzip inside gzip), so they are undone last first, each step bounded.
     * A list with any coding we do not decode is left undecoded as a whole.
     */
    @Override
    protected @Nullable EmbeddedChannel newContentDecoder(String contentEncoding) {
        String[] codings = contentEncoding.split(",");
        if (codings.length > CODINGS_MAX) {
            return null;
        }
        JdkZlibDecoder[] decoders = new JdkZlibDecoder[codings.length];
        for (int i = 0; i < codings.length; i++) {
            ZlibWrapper wrapper = wrapper(codings[i]);
            if (wrapper == null) {
                return null;
            }
            decoders[codings.length - 1 - i] = new WholeStreamDecoder(wrapper, outputBytesMax);
        }
        Channel channel = ctx.channel();
        return new EmbeddedChannel(channel.id(), channel.metadata().hasDisconnect(), channel.config(), decoders);
    }

    private static @Nullable ZlibWrapper wrapper(String coding) {
        return switch (coding.trim().toLowerCase(Locale.ROOT)) {
            case "gzip", "x-gzip" -> ZlibWrapper.GZIP;
            case "deflate", "x-deflate" -> ZlibWrapper.ZLIB_OR_NONE;
            default -> null;
        };
    }

    /**
     * Refuses a stream that ends before its end marker (a truncated gzip body), which the plain
     * decoder would pass on as whatever it had inflated so far. A body with no bytes at all is
     * not a stream and passes: it is answered as an empty body.
     */
    private static final class WholeStreamDecoder extends JdkZlibDecoder {
        private boolean sawInput;

        WholeStreamDecoder(ZlibWrapper wrapper, int outputBytesMax) {
            super(wrapper, outputBytesMax);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            sawInput |= in.isReadable();
            super.decode(ctx, in, out);
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            super.decodeLast(ctx, in, out);
            if (sawInput && !isClosed()) {
                throw new DecompressionException("compressed body ends before its end marker");
            }
        }
    }

    /** True if cause (or a cause of it) is the decoder refusing output over the bound. */
    static boolean isOutputExhausted(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DecompressionException
                    && t.getMessage() != null
                    && t.getMessage().contains(EXHAUSTED)) {
                return true;
            }
        }
        return false;
    }
}
