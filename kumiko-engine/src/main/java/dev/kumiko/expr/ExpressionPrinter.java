package dev.kumiko.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Prints an AST back to expression text that parses to the same AST. Every sub-condition of
 * AND, OR and NOT is wrapped in one pair of parentheses, which never nests two pairs directly.
 */
public final class ExpressionPrinter {
    private ExpressionPrinter() {}

    public static String print(Condition c) {
        if (c instanceof Condition.And a) {
            return "(" + print(a.left()) + ") AND (" + print(a.right()) + ")";
        }
        if (c instanceof Condition.Or o) {
            return "(" + print(o.left()) + ") OR (" + print(o.right()) + ")";
        }
        if (c instanceof Condition.Not n) {
            return "NOT (" + print(n.operand()) + ")";
        }
        if (c instanceof Condition.Compare cmp) {
            return print(cmp.left()) + " " + cmp.comparator().symbol() + " " + print(cmp.right());
        }
        if (c instanceof Condition.Between b) {
            return print(b.value()) + " BETWEEN " + print(b.lower()) + " AND " + print(b.upper());
        }
        if (c instanceof Condition.In in) {
            List<String> parts = new ArrayList<>();
            in.candidates().forEach(o -> parts.add(print(o)));
            return print(in.value()) + " IN (" + String.join(", ", parts) + ")";
        }
        if (c instanceof Condition.AttributeExists e) {
            return "attribute_exists(" + print(e.path()) + ")";
        }
        if (c instanceof Condition.AttributeNotExists e) {
            return "attribute_not_exists(" + print(e.path()) + ")";
        }
        if (c instanceof Condition.AttributeTypeIs t) {
            return "attribute_type(" + print(t.path()) + ", " + print(t.type()) + ")";
        }
        if (c instanceof Condition.BeginsWith b) {
            return "begins_with(" + print(b.value()) + ", " + print(b.prefix()) + ")";
        }
        Condition.Contains k = (Condition.Contains) c;
        return "contains(" + print(k.container()) + ", " + print(k.member()) + ")";
    }

    public static String print(Operand o) {
        if (o instanceof Operand.Path p) {
            StringBuilder sb = new StringBuilder();
            for (PathElement e : p.elements()) {
                if (e instanceof PathElement.Name n) {
                    if (sb.length() > 0) {
                        sb.append('.');
                    }
                    sb.append(n.text());
                } else {
                    sb.append(e);
                }
            }
            return sb.toString();
        }
        if (o instanceof Operand.ValueRef r) {
            return r.name();
        }
        if (o instanceof Operand.Size s) {
            return "size(" + print(s.argument()) + ")";
        }
        if (o instanceof Operand.Arithmetic a) {
            return print(a.left()) + (a.plus() ? " + " : " - ") + print(a.right());
        }
        if (o instanceof Operand.ListAppend l) {
            return "list_append(" + print(l.first()) + ", " + print(l.second()) + ")";
        }
        if (o instanceof Operand.IfNotExists i) {
            return "if_not_exists(" + print(i.path()) + ", " + print(i.fallback()) + ")";
        }
        throw new IllegalArgumentException("literals have no text form: " + o);
    }
}
