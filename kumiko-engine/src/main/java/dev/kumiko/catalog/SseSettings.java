package dev.kumiko.catalog;

/** Server-side encryption as requested: stored and described, not performed (data is local). */
public record SseSettings(boolean enabled, String sseType, String kmsMasterKeyId) {
    public static final SseSettings DEFAULT = new SseSettings(false, null, null);
}
