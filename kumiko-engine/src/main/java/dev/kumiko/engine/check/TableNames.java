package dev.kumiko.engine.check;

import dev.kumiko.engine.base.Constraints;
import dev.kumiko.error.DynamoException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Data-plane TableName members accept a name or a table ARN (1 to 1024 characters). */
public final class TableNames {
    private static final String TABLE_ARN_MARKER = ":table/";

    private TableNames() {}

    /** Validates the member and returns the table name it designates. */
    public static String resolve(@Nullable String nameOrArn, String path) {
        if (nameOrArn != null && Constraints.isTableName(nameOrArn)) {
            return nameOrArn; // every request names its table: the valid case allocates nothing
        }
        Constraints c = new Constraints();
        if (c.notNull(path, nameOrArn)) {
            c.length(path, nameOrArn, 1, 1024);
        }
        c.throwIfAny();
        String given = Objects.requireNonNull(nameOrArn, "refused as null just above");
        if (!given.startsWith("arn:")) {
            // A plain name still follows the table-name rules (3 to 255 of [a-zA-Z0-9_.-]), so a
            // malformed one is a ValidationException, never "not found".
            Constraints name = new Constraints();
            name.tableName(path, given);
            name.throwIfAny();
            return given;
        }
        return nameFromArn(given);
    }

    /** The table name in arn:aws:dynamodb:region:account:table/NAME, or null if it is not one. */
    public static @Nullable String nameFromArnOrNull(String arn) {
        String[] parts = arn.split(":", 6);
        if (parts.length != 6
                || !"arn".equals(parts[0])
                || !"dynamodb".equals(parts[2])
                || !parts[5].startsWith("table/")) {
            return null;
        }
        String rest = parts[5].substring("table/".length());
        if (rest.isEmpty() || rest.contains("/")) {
            return null;
        }
        return rest;
    }

    private static String nameFromArn(String arn) {
        String name = nameFromArnOrNull(arn);
        if (name == null) {
            // UNVERIFIED wording for a malformed table ARN in TableName.
            throw DynamoException.validation("Invalid TableArn: " + arn);
        }
        assert arn.contains(TABLE_ARN_MARKER);
        return name;
    }
}
