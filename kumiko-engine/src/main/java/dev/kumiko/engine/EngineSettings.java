package dev.kumiko.engine;

/**
 * Engine limits that tests may want smaller than DynamoDB's so that they can reach them, and
 * opt-in behaviour: {@code itemCollectionBytesMax} is DynamoDB's 10 GB item-collection limit for
 * tables with LSIs; {@code throttling} enforces provisioned throughput and per-partition-key limits
 * on every table whose {@code kumiko:throttling} tag does not say otherwise (off by default, so
 * ordinary tests never throttle).
 */
public record EngineSettings(long itemCollectionBytesMax, boolean throttling) {
    public static final long ITEM_COLLECTION_BYTES_MAX = 10L * 1024 * 1024 * 1024;
    public static final EngineSettings DEFAULTS = new EngineSettings(ITEM_COLLECTION_BYTES_MAX, false);

    public EngineSettings {
        if (itemCollectionBytesMax <= 0) {
            throw new IllegalArgumentException("itemCollectionBytesMax must be positive: " + itemCollectionBytesMax);
        }
    }

    public EngineSettings(long itemCollectionBytesMax) {
        this(itemCollectionBytesMax, false);
    }

    public EngineSettings withThrottling(boolean on) {
        return new EngineSettings(itemCollectionBytesMax, on);
    }
}
