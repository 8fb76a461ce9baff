package dev.kumiko.server.policy;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Decides a statement's condition clauses, following the IAM reference: the values listed for a key
 * are ORed, the clauses ANDed; a key missing from the request makes a clause false, except that a
 * negated operator (StringNotEquals, StringNotLike, ...) is then true, ...IfExists is true, and
 * ForAllValues is true for a missing or empty set (while ForAnyValue is false). Without a set
 * qualifier, a key holding several values holds when any of them does.
 */
final class ConditionEvaluator {
    private ConditionEvaluator() {}

    static boolean allHold(List<ConditionClause> clauses, boolean variables, Caller caller, AuthorizationCheck check) {
        for (ConditionClause c : clauses) {
            if (!holds(c, variables, caller, check)) {
                return false;
            }
        }
        return true;
    }

    static boolean holds(ConditionClause c, boolean variables, Caller caller, AuthorizationCheck check) {
        List<String> requestValues = requestValues(c.key(), caller, check);
        boolean absent = requestValues == null || requestValues.isEmpty();
        if (c.operator() == ConditionClause.Operator.NULL) {
            return c.values().contains(Boolean.toString(absent));
        }
        if (absent || requestValues == null) { // (absent says it; the test is for the nullness checker)
            return c.ifExists()
                    || c.qualifier() == ConditionClause.SetQualifier.FOR_ALL_VALUES
                    || (c.qualifier() == ConditionClause.SetQualifier.NONE && c.operator().negated);
        }
        List<Glob> patterns = patterns(c, variables, caller);
        if (patterns == null) {
            return false;
        }
        switch (c.qualifier()) {
            case FOR_ALL_VALUES:
                for (String v : requestValues) {
                    if (!holdsFor(c.operator(), patterns, v)) {
                        return false;
                    }
                }
                return true;
            case FOR_ANY_VALUE:
            case NONE:
            default:
                for (String v : requestValues) {
                    if (holdsFor(c.operator(), patterns, v)) {
                        return true;
                    }
                }
                return false;
        }
    }

    /** One request value against the clause's values: "equals any" or, negated, "equals none". */
    private static boolean holdsFor(ConditionClause.Operator op, List<Glob> patterns, String value) {
        boolean any = false;
        for (Glob g : patterns) {
            if (g.matches(value, op.ignoreCase)) {
                any = true;
                break;
            }
        }
        return any != op.negated;
    }

    /** The clause's values compiled; null when a policy variable in them has no value (the clause fails). */
    private static @Nullable List<Glob> patterns(ConditionClause c, boolean variables, Caller caller) {
        List<Glob> out = new ArrayList<>(c.values().size());
        for (String v : c.values()) {
            Glob g = PolicyVariables.compile(v, c.operator().wildcards, variables ? caller::value : null);
            if (g == null) {
                return null;
            }
            out.add(g);
        }
        return out;
    }

    private static @Nullable List<String> requestValues(String key, Caller caller, AuthorizationCheck check) {
        List<String> fromRequest = check.keys().get(key);
        if (fromRequest != null) {
            return fromRequest;
        }
        String global = caller.value(key);
        return global == null ? null : List.of(global);
    }
}
