package dev.kumiko.server.exchange;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/** Export and import ids as DynamoDB forms them: start time in 14 digits of milliseconds, 8 hex digits. */
final class JobIds {
    private JobIds() {}

    static String next(long nowMillis) {
        return String.format(
                Locale.ROOT,
                "%014d-%08x",
                nowMillis,
                ThreadLocalRandom.current().nextInt());
    }

    /** The id at the end of an export or import ARN ({@code .../table/T/export/ID}), or null. */
    static @Nullable String fromArn(@Nullable String arn, String kind) {
        if (arn == null) {
            return null;
        }
        int at = arn.lastIndexOf("/" + kind + "/");
        return at < 0 || !arn.startsWith("arn:") ? null : arn.substring(at + kind.length() + 2);
    }

    /** The same, null for null (a job record without the member). */
    static @Nullable String tableNameOrNull(@Nullable String tableArnOrName) {
        return tableArnOrName == null ? null : tableName(tableArnOrName);
    }

    /** A table's name from its ARN (arn:aws:dynamodb:R:A:table/NAME), or the value itself if not an ARN. */
    static String tableName(String tableArnOrName) {
        int at = tableArnOrName.indexOf(":table/");
        if (!tableArnOrName.startsWith("arn:") || at < 0) {
            return tableArnOrName;
        }
        String rest = tableArnOrName.substring(at + ":table/".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }
}
