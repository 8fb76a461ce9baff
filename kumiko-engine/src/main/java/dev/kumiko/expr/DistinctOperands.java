package dev.kumiko.expr;

import java.util.Map;

/**
 * DynamoDB refuses an operator or function whose first operand is the same document path as
 * another of its operands ({@code a = a}, {@code contains(a, a)}): such a test is constant, which
 * DynamoDB treats as a mistake in the expression.
 */
final class DistinctOperands {
    private final ExpressionKind kind;
    private final Map<String, String> names;

    DistinctOperands(ExpressionKind kind, Map<String, String> names) {
        this.kind = kind;
        this.names = names;
    }

    void condition(Condition c) {
        if (c instanceof Condition.And a) {
            condition(a.left());
            condition(a.right());
        } else if (c instanceof Condition.Or o) {
            condition(o.left());
            condition(o.right());
        } else if (c instanceof Condition.Not n) {
            condition(n.operand());
        } else if (c instanceof Condition.Compare cmp) {
            check(cmp.comparator().symbol(), cmp.left(), cmp.right());
        } else if (c instanceof Condition.Between b) {
            check("BETWEEN", b.value(), b.lower(), b.upper());
        } else if (c instanceof Condition.In in) {
            check("IN", in.value(), in.candidates().toArray(Operand[]::new));
        } else if (c instanceof Condition.BeginsWith b) {
            check("begins_with", b.value(), b.prefix());
        } else if (c instanceof Condition.Contains k) {
            check("contains", k.container(), k.member());
        }
    }

    private void check(String operator, Operand first, Operand... rest) {
        if (!(first instanceof Operand.Path p)) {
            return;
        }
        Operand.Path resolved = p.resolve(names);
        for (Operand o : rest) {
            if (o instanceof Operand.Path q && q.resolve(names).equals(resolved)) {
                // Wording as users quote DynamoDB's answer to "a = a".
                throw kind.invalid("The first operand must be distinct from the remaining operands for this "
                        + "operator or function; operator: " + operator + ", first operand: " + resolved.display());
            }
        }
    }
}
