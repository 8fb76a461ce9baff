package dev.kumiko.expr;

import java.util.Map;
import java.util.Set;

/**
 * The top-level attribute names an expression touches, with {@code #placeholders} resolved. IAM's
 * {@code dynamodb:Attributes} condition key is built from these; a placeholder missing from names
 * contributes nothing (the request fails validation later anyway).
 */
public final class ExpressionNames {
    private ExpressionNames() {}

    public static void of(Condition c, Map<String, String> names, Set<String> out) {
        OperandWalk.conditionOperands(c, o -> leafNames(o, names, out));
    }

    /** Every path an update writes, and every path its values read (SET a = b + :one reads b). */
    public static void of(UpdateExpression u, Map<String, String> names, Set<String> out) {
        for (UpdateAction a : u.actions()) {
            add(a.path(), names, out);
            if (a instanceof UpdateAction.Set s) {
                leafNames(s.value(), names, out);
            }
        }
    }

    public static void of(ProjectionExpression p, Map<String, String> names, Set<String> out) {
        for (Operand.Path path : p.paths()) {
            add(path, names, out);
        }
    }

    private static void leafNames(Operand o, Map<String, String> names, Set<String> out) {
        OperandWalk.leaves(o, leaf -> {
            if (leaf instanceof Operand.Path p) {
                add(p, names, out);
            }
        });
    }

    private static void add(Operand.Path p, Map<String, String> names, Set<String> out) {
        String first = p.firstName();
        if (first.startsWith("#")) {
            first = names == null ? null : names.get(first);
        }
        if (first != null) {
            out.add(first);
        }
    }
}
