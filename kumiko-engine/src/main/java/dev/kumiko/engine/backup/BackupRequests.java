package dev.kumiko.engine.backup;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.SseInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.model.BillingMode;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The typed requests and answers of the backup and point-in-time recovery operations. */
public final class BackupRequests {
    private BackupRequests() {}

    public record CreateBackup(String tableName, String backupName) {}

    /** Times are epoch milliseconds; lower inclusive, upper exclusive, as DynamoDB documents. */
    public record ListBackups(
            @Nullable String tableName,
            @Nullable Long limit,
            @Nullable Long timeRangeLowerMillis,
            @Nullable Long timeRangeUpperMillis,
            @Nullable String exclusiveStartBackupArn,
            @Nullable String backupType) {}

    /** What a restore may change about the restored table; null members keep the source's. */
    public record Overrides(
            @Nullable BillingMode billingMode,
            @Nullable ThroughputInput provisionedThroughput,
            @Nullable List<IndexInput> globalSecondaryIndexes,
            @Nullable List<IndexInput> localSecondaryIndexes,
            @Nullable SseInput sse) {
        public static final Overrides NONE = new Overrides(null, null, null, null, null);
    }

    public record RestoreFromBackup(
            String targetTableName,
            String backupArn,
            @Nullable Overrides overrides) {}

    public record RestoreToPointInTime(
            @Nullable String sourceTableArn,
            @Nullable String sourceTableName,
            String targetTableName,
            @Nullable Boolean useLatestRestorableTime,
            @Nullable Long restoreDateTimeMillis,
            @Nullable Overrides overrides) {}

    public record UpdateContinuousBackups(
            String tableName,
            @Nullable Boolean pointInTimeRecoveryEnabled,
            @Nullable Long recoveryPeriodInDays) {}

    /** A backup as DescribeBackup, ListBackups and CreateBackup show it. */
    public record BackupDescription(
            String backupArn,
            String backupName,
            long sizeBytes,
            String status,
            String type,
            long creationMillis,
            String tableArn,
            long itemCount,
            TableDescriptor table) {}

    public record BackupPage(
            List<BackupDescription> backups, @Nullable String lastEvaluatedBackupArn) {}

    /** DescribeContinuousBackups' answer; the times are meaningful only when enabled. */
    public record ContinuousBackups(
            boolean pointInTimeRecoveryEnabled,
            int recoveryPeriodInDays,
            long earliestRestorableMillis,
            long latestRestorableMillis) {}
}
