package dev.kumiko.expr;

import java.util.function.Consumer;

/**
 * Visits operands in textual order: every operand of a condition tree, and every leaf (path,
 * value placeholder, literal) inside a nested operand. One traversal for the checks and
 * collectors that only care about operands, so a new node type is added in one place.
 */
final class OperandWalk {
    private OperandWalk() {}

    /** Calls visit on each operand a condition's comparisons and functions take, left to right. */
    static void conditionOperands(Condition c, Consumer<Operand> visit) {
        if (c instanceof Condition.And x) {
            conditionOperands(x.left(), visit);
            conditionOperands(x.right(), visit);
        } else if (c instanceof Condition.Or x) {
            conditionOperands(x.left(), visit);
            conditionOperands(x.right(), visit);
        } else if (c instanceof Condition.Not x) {
            conditionOperands(x.operand(), visit);
        } else if (c instanceof Condition.Compare x) {
            visit.accept(x.left());
            visit.accept(x.right());
        } else if (c instanceof Condition.Between x) {
            visit.accept(x.value());
            visit.accept(x.lower());
            visit.accept(x.upper());
        } else if (c instanceof Condition.In x) {
            visit.accept(x.value());
            x.candidates().forEach(visit);
        } else if (c instanceof Condition.AttributeExists x) {
            visit.accept(x.path());
        } else if (c instanceof Condition.AttributeNotExists x) {
            visit.accept(x.path());
        } else if (c instanceof Condition.AttributeTypeIs x) {
            visit.accept(x.path());
            visit.accept(x.type());
        } else if (c instanceof Condition.BeginsWith x) {
            visit.accept(x.value());
            visit.accept(x.prefix());
        } else if (c instanceof Condition.Contains x) {
            visit.accept(x.container());
            visit.accept(x.member());
        } else {
            throw new AssertionError("unhandled condition " + c);
        }
    }

    /** Calls visit on each leaf operand inside o (o itself when it is a leaf), left to right. */
    static void leaves(Operand o, Consumer<Operand> visit) {
        if (o instanceof Operand.Size s) {
            leaves(s.argument(), visit);
        } else if (o instanceof Operand.Arithmetic a) {
            leaves(a.left(), visit);
            leaves(a.right(), visit);
        } else if (o instanceof Operand.ListAppend l) {
            leaves(l.first(), visit);
            leaves(l.second(), visit);
        } else if (o instanceof Operand.IfNotExists i) {
            leaves(i.path(), visit);
            leaves(i.fallback(), visit);
        } else {
            visit.accept(o);
        }
    }
}
