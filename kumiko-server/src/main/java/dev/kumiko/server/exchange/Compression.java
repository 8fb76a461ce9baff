package dev.kumiko.server.exchange;

import io.airlift.compress.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/** ImportTable's InputCompressionType: how each source file is compressed. */
enum Compression {
    NONE,
    GZIP,
    ZSTD;

    InputStream open(byte[] file) throws IOException {
        InputStream raw = new ByteArrayInputStream(file);
        return switch (this) {
            case NONE -> raw;
            case GZIP -> new GZIPInputStream(raw);
            case ZSTD -> new ZstdInputStream(raw);
        };
    }
}
