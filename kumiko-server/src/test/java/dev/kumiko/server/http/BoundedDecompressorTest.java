package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The decompressor bounds what one piece of a body may inflate to, before the aggregator behind it
 * can count anything: a gzip bomb in one piece must fail at the bound, not allocate its full size.
 */
class BoundedDecompressorTest {
    private static final int OUTPUT_BYTES_MAX = 1024 * 1024;

    private static byte[] gzipOfZeros(int bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(new byte[bytes]);
        }
        return out.toByteArray();
    }

    private static Throwable decode(EmbeddedChannel ch, byte[] gzip) {
        HttpRequest head = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        head.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        head.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, gzip.length);
        return catchThrowable(() -> ch.writeInbound(head, new DefaultLastHttpContent(Unpooled.wrappedBuffer(gzip))));
    }

    @Test
    void onePieceInflatingPastTheBoundFails() throws IOException {
        // 32 MiB of zeros: about 32 KB compressed, one piece, 32 times the bound.
        EmbeddedChannel ch = new EmbeddedChannel(new BoundedDecompressor(OUTPUT_BYTES_MAX));
        Throwable t = decode(ch, gzipOfZeros(32 * OUTPUT_BYTES_MAX));
        assertThat(BoundedDecompressor.isOutputExhausted(t))
                .as("refused at the bound: %s", t)
                .isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyWithinTheBoundInflates() throws IOException {
        EmbeddedChannel ch = new EmbeddedChannel(new BoundedDecompressor(OUTPUT_BYTES_MAX));
        assertThat(decode(ch, gzipOfZeros(OUTPUT_BYTES_MAX / 2))).isNull();
        long inflated = 0;
        Object msg;
        while ((msg = ch.readInbound()) != null) {
            if (msg instanceof HttpContent c) {
                ByteBuf b = c.content();
                inflated += b.readableBytes();
            }
            io.netty.util.ReferenceCountUtil.release(msg);
        }
        assertThat(inflated).isEqualTo(OUTPUT_BYTES_MAX / 2);
        ch.finishAndReleaseAll();
    }

    @Test
    void unknownEncodingsAreLeftUndecoded() {
        EmbeddedChannel ch = new EmbeddedChannel(new BoundedDecompressor(OUTPUT_BYTES_MAX));
        HttpRequest head = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        head.headers().set(HttpHeaderNames.CONTENT_ENCODING, "br");
        ch.writeInbound(head, new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
        HttpRequest out = ch.readInbound();
        assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("br");
        ch.finishAndReleaseAll();
    }
}
