package dev.kumiko.expr;

import java.util.Map;
import java.util.Set;

/** Collects the top-level attribute names a condition reads (placeholders resolved). */
final class ConditionPaths {
    private final Map<String, String> names;
    private final Set<String> out;

    ConditionPaths(Map<String, String> names, Set<String> out) {
        this.names = names;
        this.out = out;
    }

    void condition(Condition c) {
        if (c instanceof Condition.Compare x) {
            operands(x.left(), x.right());
        } else if (c instanceof Condition.Between x) {
            operands(x.value(), x.lower(), x.upper());
        } else if (c instanceof Condition.In x) {
            operand(x.value());
            x.candidates().forEach(this::operand);
        } else if (c instanceof Condition.And x) {
            condition(x.left());
            condition(x.right());
        } else if (c instanceof Condition.Or x) {
            condition(x.left());
            condition(x.right());
        } else if (c instanceof Condition.Not x) {
            condition(x.operand());
        } else if (c instanceof Condition.AttributeExists x) {
            operand(x.path());
        } else if (c instanceof Condition.AttributeNotExists x) {
            operand(x.path());
        } else if (c instanceof Condition.AttributeTypeIs x) {
            operands(x.path(), x.type());
        } else if (c instanceof Condition.BeginsWith x) {
            operands(x.value(), x.prefix());
        } else if (c instanceof Condition.Contains x) {
            operands(x.container(), x.member());
        }
    }

    private void operands(Operand... os) {
        for (Operand o : os) {
            operand(o);
        }
    }

    private void operand(Operand o) {
        if (o instanceof Operand.Path p) {
            out.add(p.resolve(names).firstName());
        } else if (o instanceof Operand.Size s) {
            operand(s.argument());
        } else if (o instanceof Operand.Arithmetic a) {
            operands(a.left(), a.right());
        } else if (o instanceof Operand.ListAppend l) {
            operands(l.first(), l.second());
        } else if (o instanceof Operand.IfNotExists i) {
            operands(i.path(), i.fallback());
        }
    }

    /** The top-level names read by a legacy condition (no placeholders). */
    static Set<String> of(Condition c, Map<String, String> names, Set<String> out) {
        new ConditionPaths(names, out).condition(c);
        return out;
    }
}
