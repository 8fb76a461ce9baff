package dev.kumiko.expr;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Request-time checks that need the bound values: operand types of functions and operators, and
 * BETWEEN bounds. Runs after every placeholder is known to be defined.
 */
final class TypeCheck {
    private static final String VALID_TYPES = "{ B, NULL, SS, BOOL, L, BS, N, NS, S, M }";

    private final ExpressionKind kind;
    private final Map<String, AttributeValue> values;

    TypeCheck(ExpressionKind kind, Map<String, AttributeValue> values) {
        this.kind = kind;
        this.values = values;
    }

    /** A constant operand's value (placeholder or literal), or null when it depends on the item. */
    private @Nullable AttributeValue constant(Operand o) {
        if (o instanceof Operand.ValueRef r) {
            return values.get(r.name());
        }
        if (o instanceof Operand.Literal l) {
            return l.value();
        }
        return null;
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
            compare(cmp);
        } else if (c instanceof Condition.Between b) {
            between(b);
        } else if (c instanceof Condition.In in) {
            operand(in.value());
            in.candidates().forEach(this::operand);
        } else if (c instanceof Condition.AttributeTypeIs t) {
            attributeType(t);
        } else if (c instanceof Condition.BeginsWith b) {
            requireTypes("begins_with", b.value(), AttributeType.S, AttributeType.B);
            requireTypes("begins_with", b.prefix(), AttributeType.S, AttributeType.B);
        } else if (c instanceof Condition.Contains k) {
            operand(k.container());
            operand(k.member());
        }
    }

    private void compare(Condition.Compare cmp) {
        operand(cmp.left());
        operand(cmp.right());
        if (cmp.comparator() != Comparator.EQ && cmp.comparator() != Comparator.NE) {
            requireTypes(cmp.comparator().symbol(), cmp.left(), AttributeType.S, AttributeType.N, AttributeType.B);
            requireTypes(cmp.comparator().symbol(), cmp.right(), AttributeType.S, AttributeType.N, AttributeType.B);
        }
    }

    private void between(Condition.Between b) {
        for (Operand o : new Operand[] {b.value(), b.lower(), b.upper()}) {
            operand(o);
            requireTypes("BETWEEN", o, AttributeType.S, AttributeType.N, AttributeType.B);
        }
        AttributeValue lo = constant(b.lower());
        AttributeValue hi = constant(b.upper());
        if (lo == null || hi == null) {
            return;
        }
        if (lo.type() != hi.type()) {
            // Wording not verified; modelled on the verified upper/lower-bound message below.
            throw kind.invalid(
                    "The BETWEEN operator requires same data type for lower and upper bounds; lower operand: "
                            + Values.describe(lo) + ", upper operand: " + Values.describe(hi));
        }
        if (Values.compare(lo, hi) > 0) {
            throw kind.invalid("The BETWEEN operator requires upper bound to be greater than or equal to lower bound;"
                    + " lower operand: " + Values.describe(lo) + ", upper operand: " + Values.describe(hi));
        }
    }

    private void attributeType(Condition.AttributeTypeIs t) {
        if (!(t.type() instanceof Operand.ValueRef) && !(t.type() instanceof Operand.Literal)) {
            // The Developer Guide: the type "must be an expression attribute value". UNVERIFIED wording.
            throw kind.invalid("Incorrect operand type for operator or function; operator or function: "
                    + "attribute_type, operand type: path; the type must be an expression attribute value");
        }
        requireTypes("attribute_type", t.type(), AttributeType.S);
        AttributeValue type = constant(t.type());
        if (type instanceof AttributeValue.S s && AttributeType.fromWire(s.value()) == null) {
            // Wording not verified against DynamoDB.
            throw kind.invalid(
                    "Invalid attribute type name found; type: " + s.value() + ", valid types: " + VALID_TYPES);
        }
    }

    void operand(Operand o) {
        if (o instanceof Operand.Size s) {
            operand(s.argument());
            requireTypes(
                    "size",
                    s.argument(),
                    AttributeType.S,
                    AttributeType.B,
                    AttributeType.SS,
                    AttributeType.NS,
                    AttributeType.BS,
                    AttributeType.L,
                    AttributeType.M);
        } else if (o instanceof Operand.Arithmetic a) {
            String op = a.plus() ? "+" : "-";
            operand(a.left());
            operand(a.right());
            requireTypes(op, a.left(), AttributeType.N);
            requireTypes(op, a.right(), AttributeType.N);
        } else if (o instanceof Operand.ListAppend l) {
            operand(l.first());
            operand(l.second());
            requireTypes("list_append", l.first(), AttributeType.L);
            requireTypes("list_append", l.second(), AttributeType.L);
        } else if (o instanceof Operand.IfNotExists i) {
            operand(i.fallback());
        }
    }

    /**
     * The type an operand has whatever the item holds: a constant's, or N for size() and
     * arithmetic (so {@code size(size(a))} is known to be wrong); null when it depends on the item.
     */
    private @Nullable AttributeType knownType(Operand o) {
        if (o instanceof Operand.Size || o instanceof Operand.Arithmetic) {
            return AttributeType.N;
        }
        AttributeValue v = constant(o);
        return v == null ? null : v.type();
    }

    /** An operand of known type must have one of the given types; item-dependent operands pass. */
    private void requireTypes(String function, Operand o, AttributeType... allowed) {
        AttributeType type = knownType(o);
        if (type == null) {
            return;
        }
        for (AttributeType t : allowed) {
            if (type == t) {
                return;
            }
        }
        throw kind.invalid("Incorrect operand type for operator or function; operator or function: " + function
                + ", operand type: " + type.wireName());
    }

    void update(UpdateExpression u) {
        for (UpdateAction a : u.actions()) {
            if (a instanceof UpdateAction.Set s) {
                operand(s.value());
            } else if (a instanceof UpdateAction.Add add) {
                AttributeValue v = constant(add.value());
                if (v != null && v.type() != AttributeType.N && !v.type().isSet()) {
                    throw updateOperandType("ADD", v);
                }
            } else if (a instanceof UpdateAction.Delete d) {
                AttributeValue v = constant(d.value());
                if (v != null && !v.type().isSet()) {
                    throw updateOperandType("DELETE", v);
                }
            }
        }
    }

    private RuntimeException updateOperandType(String operator, AttributeValue v) {
        return kind.invalid("Incorrect operand type for operator or function; operator: " + operator
                + ", operand type: " + Values.longTypeName(v.type()));
    }
}
