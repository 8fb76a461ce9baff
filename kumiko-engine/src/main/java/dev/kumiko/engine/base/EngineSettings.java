package dev.kumiko.engine.base;

/**
 * Engine limits that tests may want smaller than DynamoDB's so that they can reach them, opt-in
 * behaviour and the pace of background work: {@code itemCollectionBytesMax} is DynamoDB's 10 GB
 * item-collection limit for tables with LSIs; {@code throttling} enforces provisioned throughput
 * and per-partition-key limits on every table whose {@code kumiko:throttling} tag does not say
 * otherwise (off by default, so ordinary tests never throttle); {@code ttlSweepIntervalMillis} is
 * how often the TTL sweeper looks for expired items (0: never in the background, only when asked
 * through the admin hooks); {@code pitrBaseIntervalMillis} is how often point-in-time recovery takes a
 * new base copy of each table it covers (a restore replays the change log from the newest base
 * before its time); {@code backupStepPauseMillis} is a pause before each batch of a backup or
 * restore job (0; tests make it long to catch a job half done).
 */
public record EngineSettings(
        long itemCollectionBytesMax,
        boolean throttling,
        long ttlSweepIntervalMillis,
        long pitrBaseIntervalMillis,
        long backupStepPauseMillis) {
    public static final long ITEM_COLLECTION_BYTES_MAX = 10L * 1024 * 1024 * 1024;
    /** Expired items go within about a second, where DynamoDB takes up to two days. */
    public static final long TTL_SWEEP_INTERVAL_MILLIS = 1_000;
    /** A base copy per hour bounds a restore's replay to about an hour of changes. */
    public static final long PITR_BASE_INTERVAL_MILLIS = 60L * 60 * 1000;

    public static final EngineSettings DEFAULTS =
            new EngineSettings(ITEM_COLLECTION_BYTES_MAX, false, TTL_SWEEP_INTERVAL_MILLIS);

    public EngineSettings {
        if (itemCollectionBytesMax <= 0) {
            throw new IllegalArgumentException("itemCollectionBytesMax must be positive: " + itemCollectionBytesMax);
        }
        if (pitrBaseIntervalMillis <= 0 || backupStepPauseMillis < 0) {
            throw new IllegalArgumentException(
                    "bad backup pacing: " + pitrBaseIntervalMillis + ", " + backupStepPauseMillis);
        }
        if (ttlSweepIntervalMillis < 0) {
            throw new IllegalArgumentException(
                    "ttlSweepIntervalMillis must not be negative: " + ttlSweepIntervalMillis);
        }
    }

    public EngineSettings(long itemCollectionBytesMax, boolean throttling, long ttlSweepIntervalMillis) {
        this(itemCollectionBytesMax, throttling, ttlSweepIntervalMillis, PITR_BASE_INTERVAL_MILLIS, 0);
    }

    public EngineSettings(long itemCollectionBytesMax) {
        this(itemCollectionBytesMax, false, TTL_SWEEP_INTERVAL_MILLIS);
    }

    public EngineSettings withThrottling(boolean on) {
        return new EngineSettings(
                itemCollectionBytesMax, on, ttlSweepIntervalMillis, pitrBaseIntervalMillis, backupStepPauseMillis);
    }

    public EngineSettings withTtlSweepIntervalMillis(long millis) {
        return new EngineSettings(
                itemCollectionBytesMax, throttling, millis, pitrBaseIntervalMillis, backupStepPauseMillis);
    }

    public EngineSettings withBackupPacing(long baseIntervalMillis, long stepPauseMillis) {
        return new EngineSettings(
                itemCollectionBytesMax, throttling, ttlSweepIntervalMillis, baseIntervalMillis, stepPauseMillis);
    }
}
