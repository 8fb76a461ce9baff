package dev.kumiko.server.http;

import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.auth.SigV4Verifier;
import dev.kumiko.server.policy.RequestAuthorizer;
import io.netty.handler.ssl.SslContext;
import org.jspecify.annotations.Nullable;

/**
 * Transport settings; every limit on client input is in {@link ServerLimits}.
 *
 * @param verifier   null: {@code --auth=none}, any well-formed Authorization header is accepted
 * @param authorizer called after a signature is verified; unused without a verifier
 * @param tls        null: plain HTTP
 * @param eventLoopThreads Netty worker threads, which also run the requests: one per core by default
 *     (more only queue on the cores: measured ~7% fewer puts/s with two per core), more where a
 *     request blocks (an fsync, so that more writes share one)
 */
public record ServerConfig(
        String host,
        int port,
        String defaultRegion,
        ServerLimits limits,
        int compressionThresholdBytes,
        @Nullable SigV4Verifier verifier,
        @Nullable RequestAuthorizer authorizer,
        @Nullable SslContext tls,
        int eventLoopThreads) {
    public static final int COMPRESSION_THRESHOLD_BYTES_DEFAULT = 2048;

    public ServerConfig {
        assert verifier == null || authorizer != null : "a verified request is always authorized";
        assert eventLoopThreads > 0 : eventLoopThreads;
    }

    public static ServerConfig defaults(String host, int port, String region) {
        return new ServerConfig(
                host,
                port,
                region,
                ServerLimits.DEFAULTS,
                COMPRESSION_THRESHOLD_BYTES_DEFAULT,
                null,
                null,
                null,
                Runtime.getRuntime().availableProcessors());
    }

    public ServerConfig withLimits(ServerLimits limits) {
        return new ServerConfig(
                host,
                port,
                defaultRegion,
                limits,
                compressionThresholdBytes,
                verifier,
                authorizer,
                tls,
                eventLoopThreads);
    }

    /** {@code --auth=sigv4}: every DynamoDB request is verified, then authorized. */
    public ServerConfig withSigV4(SigV4Verifier verifier, RequestAuthorizer authorizer) {
        return new ServerConfig(
                host,
                port,
                defaultRegion,
                limits,
                compressionThresholdBytes,
                verifier,
                authorizer,
                tls,
                eventLoopThreads);
    }

    /** Serve HTTPS with this server context. */
    public ServerConfig withTls(SslContext tls) {
        return new ServerConfig(
                host,
                port,
                defaultRegion,
                limits,
                compressionThresholdBytes,
                verifier,
                authorizer,
                tls,
                eventLoopThreads);
    }

    public ServerConfig withEventLoopThreads(int threads) {
        return new ServerConfig(
                host, port, defaultRegion, limits, compressionThresholdBytes, verifier, authorizer, tls, threads);
    }

    public boolean sigV4() {
        return verifier != null;
    }
}
