package dev.kumiko.engine.ttl;

import org.jspecify.annotations.Nullable;

/** UpdateTimeToLive and its answers; any request member may be null (absent). */
public final class TimeToLiveRequests {
    private TimeToLiveRequests() {}

    public record Specification(String attributeName, Boolean enabled) {}

    public record UpdateTimeToLive(String tableName, Specification timeToLiveSpecification) {}

    /** DescribeTimeToLive's answer: status ENABLED or DISABLED, the attribute when enabled. */
    public record Description(
            String timeToLiveStatus, @Nullable String attributeName) {}
}
