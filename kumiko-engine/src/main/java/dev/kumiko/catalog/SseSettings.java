package dev.kumiko.catalog;

import dev.kumiko.model.SseType;
import org.jspecify.annotations.Nullable;

/** Server-side encryption as requested: stored and described, not performed (data is local). */
public record SseSettings(
        boolean enabled,
        @Nullable SseType sseType,
        @Nullable String kmsMasterKeyId) {
    public static final SseSettings DEFAULT = new SseSettings(false, null, null);
}
