package dev.kumiko.server.http;

/**
 * Transport settings. The request limit follows DynamoDB's largest request (BatchWriteItem's
 * 16 MB) plus room for JSON overhead; bodies are limited after decompression.
 */
public record ServerConfig(String host, int port, String defaultRegion, int requestBytesMax,
        int compressionThresholdBytes) {
    public static final int REQUEST_BYTES_MAX_DEFAULT = 16 * 1024 * 1024 + 64 * 1024;
    public static final int COMPRESSION_THRESHOLD_BYTES_DEFAULT = 2048;

    public static ServerConfig defaults(String host, int port, String region) {
        return new ServerConfig(host, port, region, REQUEST_BYTES_MAX_DEFAULT, COMPRESSION_THRESHOLD_BYTES_DEFAULT);
    }
}
