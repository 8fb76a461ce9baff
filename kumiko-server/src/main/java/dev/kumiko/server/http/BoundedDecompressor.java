package dev.kumiko.server.http;

import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.compression.JdkZlibDecoder;
import io.netty.handler.codec.compression.ZlibWrapper;
import io.netty.handler.codec.http.HttpContentDecompressor;
import java.util.Locale;

/**
 * Request bodies in gzip or deflate (what the SDKs send), with the output of one decoding step
 * bounded: without a bound, one 64 KB piece of a gzip bomb inflates to 64 MB before the aggregator
 * behind can count it. Other encodings (br, zstd, snappy) are left undecoded, so the body fails to
 * parse as JSON: a client error, and no decoder whose memory use we have not bounded.
 */
final class BoundedDecompressor extends HttpContentDecompressor {
    private static final String EXHAUSTED = "maximum size";
    private final int outputBytesMax;

    BoundedDecompressor(int outputBytesMax) {
        this.outputBytesMax = outputBytesMax;
    }

    @Override
    protected EmbeddedChannel newContentDecoder(String contentEncoding) {
        String encoding = contentEncoding.trim().toLowerCase(Locale.ROOT);
        ZlibWrapper wrapper = switch (encoding) {
            case "gzip", "x-gzip" -> ZlibWrapper.GZIP;
            case "deflate", "x-deflate" -> ZlibWrapper.ZLIB_OR_NONE;
            default -> null;
        };
        if (wrapper == null) {
            return null;
        }
        Channel channel = ctx.channel();
        return new EmbeddedChannel(channel.id(), channel.metadata().hasDisconnect(), channel.config(),
                new JdkZlibDecoder(wrapper, outputBytesMax));
    }

    /** True if cause (or a cause of it) is the decoder refusing output over the bound. */
    static boolean isOutputExhausted(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DecompressionException && t.getMessage() != null && t.getMessage().contains(EXHAUSTED)) {
                return true;
            }
        }
        return false;
    }
}
