package dev.kumiko.server.policy;

import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One key under one operator of a Condition block, e.g. {@code "ForAllValues:StringEquals":
 * {"dynamodb:LeadingKeys": ["USER#${aws:PrincipalTag/userId}"]}}. The values are ORed; the
 * clauses of a statement are ANDed.
 */
record ConditionClause(Operator operator, SetQualifier qualifier, boolean ifExists, String key, List<String> values) {
    ConditionClause {
        values = List.copyOf(values);
        key = key.toLowerCase(Locale.ROOT);
        assert !values.isEmpty();
    }

    /** ForAllValues / ForAnyValue, for keys that can carry several values (LeadingKeys, Attributes). */
    enum SetQualifier {
        NONE,
        FOR_ALL_VALUES,
        FOR_ANY_VALUE
    }

    /** The operators Kumiko evaluates: IAM's string family and Null. */
    enum Operator {
        STRING_EQUALS("StringEquals", false, false, false),
        STRING_NOT_EQUALS("StringNotEquals", true, false, false),
        STRING_EQUALS_IGNORE_CASE("StringEqualsIgnoreCase", false, true, false),
        STRING_NOT_EQUALS_IGNORE_CASE("StringNotEqualsIgnoreCase", true, true, false),
        STRING_LIKE("StringLike", false, false, true),
        STRING_NOT_LIKE("StringNotLike", true, false, true),
        NULL("Null", false, false, false);

        final String policyName;
        final boolean negated;
        final boolean ignoreCase;
        final boolean wildcards;

        Operator(String policyName, boolean negated, boolean ignoreCase, boolean wildcards) {
            this.policyName = policyName;
            this.negated = negated;
            this.ignoreCase = ignoreCase;
            this.wildcards = wildcards;
        }

        static @Nullable Operator named(String name) {
            for (Operator o : values()) {
                if (o.policyName.equals(name)) {
                    return o;
                }
            }
            return null;
        }
    }
}
