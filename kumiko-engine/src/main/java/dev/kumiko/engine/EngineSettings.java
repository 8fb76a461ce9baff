package dev.kumiko.engine;

/**
 * Engine limits that tests may want smaller than DynamoDB's so that they can reach them:
 * {@code itemCollectionBytesMax} is DynamoDB's 10 GB item-collection limit for tables with LSIs.
 */
public record EngineSettings(long itemCollectionBytesMax) {
    public static final long ITEM_COLLECTION_BYTES_MAX = 10L * 1024 * 1024 * 1024;
    public static final EngineSettings DEFAULTS = new EngineSettings(ITEM_COLLECTION_BYTES_MAX);

    public EngineSettings {
        if (itemCollectionBytesMax <= 0) {
            throw new IllegalArgumentException("itemCollectionBytesMax must be positive: " + itemCollectionBytesMax);
        }
    }
}
