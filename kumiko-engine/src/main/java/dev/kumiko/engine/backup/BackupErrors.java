package dev.kumiko.engine.backup;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;

/**
 * The errors of backups and point-in-time recovery. DynamoDB's exception types are documented per
 * operation in the API Reference; their message texts are not, so the wordings here follow what
 * DynamoDB is known to answer and are marked UNVERIFIED where no capture was at hand.
 */
final class BackupErrors {
    private BackupErrors() {}

    static DynamoException tableNotFound(String tableName) {
        // UNVERIFIED wording.
        return new DynamoException(ErrorCode.TABLE_NOT_FOUND, "Table not found: " + tableName);
    }

    static DynamoException tableAlreadyExists(String tableName) {
        // UNVERIFIED wording.
        return new DynamoException(ErrorCode.TABLE_ALREADY_EXISTS, "Table already exists: " + tableName);
    }

    static DynamoException tableInUse(String tableName) {
        // UNVERIFIED wording.
        return new DynamoException(ErrorCode.TABLE_IN_USE, "Table is being restored: " + tableName);
    }

    static DynamoException backupNotFound(String arn) {
        // UNVERIFIED wording.
        return new DynamoException(ErrorCode.BACKUP_NOT_FOUND, "Backup not found for the given BackupARN: " + arn);
    }

    static DynamoException backupInUse(String what) {
        // UNVERIFIED wording.
        return new DynamoException(ErrorCode.BACKUP_IN_USE, what);
    }

    static DynamoException pitrUnavailable(String tableName) {
        // UNVERIFIED wording.
        return new DynamoException(
                ErrorCode.POINT_IN_TIME_RECOVERY_UNAVAILABLE,
                "Point in time recovery is not enabled for table '" + tableName + "'");
    }

    static DynamoException invalidRestoreTime() {
        // UNVERIFIED wording.
        return new DynamoException(
                ErrorCode.INVALID_RESTORE_TIME,
                "Only RestoreDateTime between EarliestRestorableDateTime and LatestRestorableDateTime can be "
                        + "specified");
    }

    static DynamoException continuousBackupsUnavailable(String tableName) {
        // UNVERIFIED wording.
        return new DynamoException(
                ErrorCode.CONTINUOUS_BACKUPS_UNAVAILABLE,
                "Backups are not available for table " + tableName + " while it is being restored");
    }
}
