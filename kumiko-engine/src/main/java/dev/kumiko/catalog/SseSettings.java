package dev.kumiko.catalog;

import dev.kumiko.model.SseType;

/** Server-side encryption as requested: stored and described, not performed (data is local). */
public record SseSettings(boolean enabled, SseType sseType, String kmsMasterKeyId) {
    public static final SseSettings DEFAULT = new SseSettings(false, null, null);
}
