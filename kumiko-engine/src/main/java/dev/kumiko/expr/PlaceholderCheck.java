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

    PlaceholderCheck(
            ExpressionKind kind,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            Set<String> usedNames,
            Set<String> usedValues) {
        this.kind = kind;
        this.names = names;
        this.values = values;
        this.usedNames = usedNames;
        this.usedValues = usedValues;
    }

    void condition(Condition c) {
        OperandWalk.conditionOperands(c, this::operand);
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

    void operand(Operand o) {
        OperandWalk.leaves(o, this::leaf);
    }

    private void leaf(Operand o) {
        if (o instanceof Operand.Path p) {
            path(p.elements());
        } else if (o instanceof Operand.ValueRef r) {
            if (!values.containsKey(r.name())) {
                throw kind.invalid("An expression attribute value used in expression is not defined; attribute value: "
                        + r.name());
            }
            usedValues.add(r.name());
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
