package dev.kumiko.server.protocol;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.server.auth.AccessKey;
import org.jspecify.annotations.Nullable;

/**
 * What one request carries besides its body: the engine's context (the region signed for), the
 * request id the response will bear, the verified caller (null when requests are not signed) and
 * the Host header (DescribeEndpoints points clients back at it).
 */
public record CallContext(
        RequestContext engine,
        @Nullable String requestId,
        @Nullable AccessKey caller,
        @Nullable String host) {
    public String region() {
        return engine.region();
    }
}
