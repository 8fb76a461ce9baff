package dev.kumiko.server.http;

import dev.kumiko.server.auth.RequestAuthorizer;
import dev.kumiko.server.auth.SigV4Verifier;
import io.netty.handler.ssl.SslContext;

/**
 * Transport settings. The request limit follows DynamoDB's largest request (BatchWriteItem's
 * 16 MB) plus room for JSON overhead; bodies are limited after decompression.
 *
 * @param verifier   null: {@code --auth=none}, any well-formed Authorization header is accepted
 * @param authorizer called after a signature is verified; unused without a verifier
 * @param tls        null: plain HTTP
 */
public record ServerConfig(String host, int port, String defaultRegion, int requestBytesMax,
        int compressionThresholdBytes, SigV4Verifier verifier, RequestAuthorizer authorizer, SslContext tls) {
    public static final int REQUEST_BYTES_MAX_DEFAULT = 16 * 1024 * 1024 + 64 * 1024;
    public static final int COMPRESSION_THRESHOLD_BYTES_DEFAULT = 2048;

    public ServerConfig {
        assert verifier == null || authorizer != null : "a verified request is always authorized";
    }

    public static ServerConfig defaults(String host, int port, String region) {
        return new ServerConfig(host, port, region, REQUEST_BYTES_MAX_DEFAULT, COMPRESSION_THRESHOLD_BYTES_DEFAULT,
                null, null, null);
    }

    /** {@code --auth=sigv4}: every DynamoDB request is verified, then authorized. */
    public ServerConfig withSigV4(SigV4Verifier verifier, RequestAuthorizer authorizer) {
        return new ServerConfig(host, port, defaultRegion, requestBytesMax, compressionThresholdBytes, verifier,
                authorizer, tls);
    }

    /** Serve HTTPS with this server context. */
    public ServerConfig withTls(SslContext tls) {
        return new ServerConfig(host, port, defaultRegion, requestBytesMax, compressionThresholdBytes, verifier,
                authorizer, tls);
    }

    public boolean sigV4() {
        return verifier != null;
    }
}
