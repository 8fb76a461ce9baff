package dev.kumiko.server.http;

import dev.kumiko.server.ServerLimits;

/** Transport settings; every limit on client input is in {@link ServerLimits}. */
public record ServerConfig(String host, int port, String defaultRegion, ServerLimits limits,
        int compressionThresholdBytes) {
    public static final int COMPRESSION_THRESHOLD_BYTES_DEFAULT = 2048;

    public static ServerConfig defaults(String host, int port, String region) {
        return new ServerConfig(host, port, region, ServerLimits.DEFAULTS, COMPRESSION_THRESHOLD_BYTES_DEFAULT);
    }

    public ServerConfig withLimits(ServerLimits limits) {
        return new ServerConfig(host, port, defaultRegion, limits, compressionThresholdBytes);
    }
}
