package dev.kumiko.engine.base;

import dev.kumiko.error.MemberConstraintException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Collects violations of the API model's member constraints and reports them the way DynamoDB's
 * front end does: "N validation error(s) detected: Value 'x' at 'path' failed to satisfy
 * constraint: ...", joined with "; ", in the order they were found.
 */
public final class Constraints {
    public static final Pattern TABLE_NAME_PATTERN = Pattern.compile("[a-zA-Z0-9_.-]+");
    public static final int TABLE_NAME_MIN = 3;
    public static final int TABLE_NAME_MAX = 255;
    private final List<String> violations = new ArrayList<>(2);

    public boolean notNull(String path, @Nullable Object value) {
        if (value == null) {
            violations.add("Value null at '" + path + "' failed to satisfy constraint: Member must not be null");
            return false;
        }
        return true;
    }

    public void length(String path, @Nullable String value, int min, int max) {
        if (value == null) {
            return;
        }
        int n = value.codePointCount(0, value.length());
        if (n < min) {
            fail(path, value, "Member must have length greater than or equal to " + min);
        } else if (n > max) {
            fail(path, value, "Member must have length less than or equal to " + max);
        }
    }

    public void size(String path, @Nullable Collection<?> value, String rendered, int min, int max) {
        if (value == null) {
            return;
        }
        if (value.size() < min) {
            fail(path, rendered, "Member must have length greater than or equal to " + min);
        } else if (value.size() > max) {
            fail(path, rendered, "Member must have length less than or equal to " + max);
        }
    }

    public void pattern(String path, @Nullable String value, Pattern pattern) {
        if (value != null && !pattern.matcher(value).matches()) {
            fail(path, value, "Member must satisfy regular expression pattern: " + pattern.pattern());
        }
    }

    /**
     * True for a name that passes the table-name rule: the test of {@link #tableName} without a
     * regex, for the path every request takes (a request names its table up to three times).
     */
    public static boolean isTableName(@Nullable String name) {
        if (name == null || name.length() < TABLE_NAME_MIN || name.length() > TABLE_NAME_MAX) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            boolean ok = (ch >= 'a' && ch <= 'z')
                    || (ch >= 'A' && ch <= 'Z')
                    || (ch >= '0' && ch <= '9')
                    || ch == '_'
                    || ch == '.'
                    || ch == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** DynamoDB's table-name rule: 3 to 255 characters of [a-zA-Z0-9_.-]. */
    public void tableName(String path, @Nullable String value) {
        if (isTableName(value)) {
            return;
        }
        length(path, value, TABLE_NAME_MIN, TABLE_NAME_MAX);
        pattern(path, value, TABLE_NAME_PATTERN);
    }

    public void range(String path, @Nullable Long value, long min, long max) {
        if (value == null) {
            return;
        }
        if (value < min) {
            fail(path, String.valueOf(value), "Member must have value greater than or equal to " + min);
        } else if (value > max) {
            fail(path, String.valueOf(value), "Member must have value less than or equal to " + max);
        }
    }

    /** The enum's allowed values, printed in the order DynamoDB's model lists them. */
    public void enumValue(String path, @Nullable String value, List<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            fail(path, value, "Member must satisfy enum value set: " + allowed);
        }
    }

    public void fail(String path, @Nullable String value, String constraint) {
        violations.add("Value '" + value + "' at '" + path + "' failed to satisfy constraint: " + constraint);
    }

    public boolean isEmpty() {
        return violations.isEmpty();
    }

    /** Throws the collected violations as one ValidationException, if there are any. */
    public void throwIfAny() {
        if (violations.isEmpty()) {
            return;
        }
        int n = violations.size();
        String head = n + (n == 1 ? " validation error detected: " : " validation errors detected: ");
        throw new MemberConstraintException(head + String.join("; ", violations));
    }
}
