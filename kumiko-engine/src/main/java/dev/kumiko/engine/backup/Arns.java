package dev.kumiko.engine.backup;

import dev.kumiko.engine.base.RequestContext;
import org.jspecify.annotations.Nullable;

/** Table and backup ARNs: {@code arn:aws:dynamodb:REGION:ACCOUNT:table/T/backup/01234567890123-abcdefgh}. */
final class Arns {
    private static final String BACKUP_PART = "/backup/";

    private Arns() {}

    static String table(String region, String tableName) {
        return new RequestContext(region).tableArn(tableName);
    }

    /** The backup id an ARN names, or null when it does not have a backup ARN's shape. */
    static @Nullable String backupId(@Nullable String arn) {
        if (arn == null || !arn.startsWith("arn:")) {
            return null;
        }
        int at = arn.lastIndexOf(BACKUP_PART);
        return at < 0 || at + BACKUP_PART.length() == arn.length() ? null : arn.substring(at + BACKUP_PART.length());
    }

    /** The table name in a backup ARN ("...:table/T/backup/ID"), or null. */
    static @Nullable String tableOfBackup(String arn) {
        int table = arn.indexOf(":table/");
        int backup = arn.lastIndexOf(BACKUP_PART);
        return table < 0 || backup < table ? null : arn.substring(table + ":table/".length(), backup);
    }
}
