package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Walks an AST in textual order, failing on the first undefined placeholder and recording every
 * placeholder used, for the request-wide "unused" check.
 */
final class PlaceholderCheck {
    private final ExpressionKind kind;
    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;
    private final Set<String> usedNames;
    private final Set<String> usedValues;

    PlaceholderCheck(ExpressionKind kind, Map<String, String> names, Map<String, AttributeValue> values,
                     Set<String> usedNames, Set<String> usedValues) {
        this.kind = kind;
        this.names = names;
        this.values = values;
        this.usedNames = usedNames;
        this.usedValues = usedValues;
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
            operands(cmp.left(), cmp.right());
        } else if (c instanceof Condition.Between b) {
            operands(b.value(), b.lower(), b.upper());
        } else if (c instanceof Condition.In in) {
            operand(in.value());
            in.candidates().forEach(this::operand);
        } else if (c instanceof Condition.AttributeExists e) {
            operand(e.path());
        } else if (c instanceof Condition.AttributeNotExists e) {
            operand(e.path());
        } else if (c instanceof Condition.AttributeTypeIs t) {
            operands(t.path(), t.type());
        } else if (c instanceof Condition.BeginsWith b) {
            operands(b.value(), b.prefix());
        } else if (c instanceof Condition.Contains k) {
            operands(k.container(), k.member());
        }
    }

    void update(UpdateExpression u) {
        for (UpdateAction a : u.actions()) {
            operand(a.path());
            if (a instanceof UpdateAction.Set s) {
                operand(s.value());
            } else if (a instanceof UpdateAction.Add add) {
                operand(add.value());
            } else if (a instanceof UpdateAction.Delete d) {
                operand(d.value());
            }
        }
    }

    void projection(ProjectionExpression p) {
        p.paths().forEach(this::operand);
    }

    private void operands(Operand... operands) {
        for (Operand o : operands) {
            operand(o);
        }
    }

    void operand(Operand o) {
        if (o instanceof Operand.Path p) {
            path(p.elements());
        } else if (o instanceof Operand.ValueRef r) {
            if (!values.containsKey(r.name())) {
                throw kind.invalid("An expression attribute value used in expression is not defined; attribute value: "
                        + r.name());
            }
            usedValues.add(r.name());
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

    private void path(List<PathElement> elements) {
        for (PathElement e : elements) {
            if (e instanceof PathElement.Name n && n.isPlaceholder()) {
                if (!names.containsKey(n.text())) {
                    throw kind.invalid("An expression attribute name used in the document path is not defined;"
                            + " attribute name: " + n.text());
                }
                usedNames.add(n.text());
            }
        }
    }
}
