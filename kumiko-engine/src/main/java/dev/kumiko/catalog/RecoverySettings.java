package dev.kumiko.catalog;

import org.jspecify.annotations.Nullable;

/**
 * A table's point-in-time recovery setting and, for a table made by a restore, where it came from.
 * {@code pitrEnabledMillis} is when recovery was last turned on (0 when off); {@code restore} is
 * null for a table that was never restored.
 */
public record RecoverySettings(
        boolean pitrEnabled,
        int recoveryPeriodInDays,
        long pitrEnabledMillis,
        @Nullable RestoreSummary restore) {
    /** DynamoDB's default and largest recovery period. */
    public static final int RECOVERY_PERIOD_DAYS_DEFAULT = 35;

    public static final RecoverySettings NONE = new RecoverySettings(false, RECOVERY_PERIOD_DAYS_DEFAULT, 0, null);

    /**
     * DynamoDB's RestoreSummary: the backup or table restored from (one of the two ARNs), the time
     * restored to, and whether the restore is still writing the table's items.
     */
    public record RestoreSummary(
            @Nullable String sourceBackupArn,
            @Nullable String sourceTableArn,
            long restoreDateTimeMillis,
            boolean restoreInProgress) {
        public RestoreSummary finished() {
            return new RestoreSummary(sourceBackupArn, sourceTableArn, restoreDateTimeMillis, false);
        }
    }

    public RecoverySettings withPitr(boolean enabled, int periodDays, long enabledMillis) {
        return new RecoverySettings(enabled, periodDays, enabledMillis, restore);
    }

    public RecoverySettings withRestore(RestoreSummary summary) {
        return new RecoverySettings(pitrEnabled, recoveryPeriodInDays, pitrEnabledMillis, summary);
    }

    /** DescribeTable says CREATING while a restore is writing the table. */
    public boolean restoring() {
        return restore != null && restore.restoreInProgress();
    }
}
