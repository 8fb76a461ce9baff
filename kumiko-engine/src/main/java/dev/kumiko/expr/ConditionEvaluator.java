package dev.kumiko.expr;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Evaluates a validated condition against an item. Never throws for data reasons: a missing
 * attribute or a type mismatch makes a comparison false, as in DynamoDB.
 */
final class ConditionEvaluator {
    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;

    ConditionEvaluator(Map<String, String> names, Map<String, AttributeValue> values) {
        this.names = names;
        this.values = values;
    }

    boolean test(Condition c, Map<String, AttributeValue> item) {
        if (c instanceof Condition.And and) {
            return test(and.left(), item) && test(and.right(), item);
        }
        if (c instanceof Condition.Or or) {
            return test(or.left(), item) || test(or.right(), item);
        }
        if (c instanceof Condition.Not not) {
            return !test(not.operand(), item);
        }
        if (c instanceof Condition.Compare cmp) {
            return compare(cmp.comparator(), value(cmp.left(), item), value(cmp.right(), item));
        }
        if (c instanceof Condition.Between b) {
            return between(value(b.value(), item), value(b.lower(), item), value(b.upper(), item));
        }
        if (c instanceof Condition.In in) {
            return in(in, item);
        }
        return testFunction(c, item);
    }

    private boolean testFunction(Condition c, Map<String, AttributeValue> item) {
        if (c instanceof Condition.AttributeExists e) {
            return value(e.path(), item) != null;
        }
        if (c instanceof Condition.AttributeNotExists e) {
            return value(e.path(), item) == null;
        }
        if (c instanceof Condition.AttributeTypeIs t) {
            AttributeValue v = value(t.path(), item);
            AttributeValue type = value(t.type(), item);
            return v != null
                    && type instanceof AttributeValue.S s
                    && v.type().wireName().equals(s.value());
        }
        if (c instanceof Condition.BeginsWith b) {
            return beginsWith(value(b.value(), item), value(b.prefix(), item));
        }
        if (c instanceof Condition.Contains k) {
            return contains(value(k.container(), item), value(k.member(), item));
        }
        throw new AssertionError(c);
    }

    /** The operand's value, or null when it refers to a missing attribute. */
    @Nullable
    AttributeValue value(Operand o, Map<String, AttributeValue> item) {
        if (o instanceof Operand.Path p) {
            return PathReader.read(item, p, names);
        }
        if (o instanceof Operand.ValueRef r) {
            return values.get(r.name());
        }
        if (o instanceof Operand.Literal l) {
            return l.value();
        }
        if (o instanceof Operand.Size s) {
            return size(value(s.argument(), item));
        }
        throw new AssertionError("update-only operand in a condition: " + o);
    }

    static boolean compare(Comparator op, @Nullable AttributeValue a, @Nullable AttributeValue b) {
        if (op == Comparator.EQ || op == Comparator.NE) {
            boolean eq = a != null && b != null && Values.equal(a, b);
            return op == Comparator.EQ ? eq : !eq;
        }
        if (a == null || b == null || a.type() != b.type() || !Values.isOrderable(a.type())) {
            return false;
        }
        int c = Values.compare(a, b);
        switch (op) {
            case LT:
                return c < 0;
            case LE:
                return c <= 0;
            case GT:
                return c > 0;
            case GE:
                return c >= 0;
            default:
                throw new AssertionError(op);
        }
    }

    private static boolean between(
            @Nullable AttributeValue v, @Nullable AttributeValue lo, @Nullable AttributeValue hi) {
        return compare(Comparator.GE, v, lo) && compare(Comparator.LE, v, hi);
    }

    private boolean in(Condition.In in, Map<String, AttributeValue> item) {
        AttributeValue v = value(in.value(), item);
        if (v == null) {
            return false;
        }
        for (Operand candidate : in.candidates()) {
            if (compare(Comparator.EQ, v, value(candidate, item))) {
                return true;
            }
        }
        return false;
    }

    static boolean beginsWith(@Nullable AttributeValue v, @Nullable AttributeValue prefix) {
        if (v == null || prefix == null || v.type() != prefix.type()) {
            return false;
        }
        if (v.type() == AttributeType.S) {
            return ((AttributeValue.S) v).value().startsWith(((AttributeValue.S) prefix).value());
        }
        if (v.type() == AttributeType.B) {
            return Values.startsWith(((AttributeValue.B) v).value(), ((AttributeValue.B) prefix).value());
        }
        return false;
    }

    static boolean contains(@Nullable AttributeValue container, @Nullable AttributeValue member) {
        if (container == null || member == null) {
            return false;
        }
        switch (container.type()) {
            case S:
                return member.type() == AttributeType.S
                        && ((AttributeValue.S) container).value().contains(((AttributeValue.S) member).value());
            case B:
                // A binary contains another when the operand's bytes occur in it (a subsequence).
                return member instanceof AttributeValue.B b
                        && Values.indexOf(((AttributeValue.B) container).value(), b.value()) >= 0;
            case SS:
                return member instanceof AttributeValue.S s
                        && ((AttributeValue.SS) container).values().contains(s.value());
            case NS:
                return member instanceof AttributeValue.N n
                        && Values.numberSet(((AttributeValue.NS) container).values())
                                .contains(n.value());
            case BS:
                return member instanceof AttributeValue.B b
                        && Values.binarySet(((AttributeValue.BS) container).values())
                                .contains(java.nio.ByteBuffer.wrap(b.value()));
            case L:
                for (AttributeValue e : ((AttributeValue.L) container).values()) {
                    if (Values.equal(e, member)) {
                        return true;
                    }
                }
                return false;
            default:
                return false;
        }
    }

    /**
     * size(): strings by their length in characters (the expression page says "the length of the
     * string"; code points, so a character outside the BMP counts once), binaries by bytes,
     * sets/lists/maps by element count. Other types have no size, so comparisons against it are false.
     */
    static @Nullable AttributeValue size(@Nullable AttributeValue v) {
        if (v == null) {
            return null;
        }
        long n;
        switch (v.type()) {
            case S:
                n = ((AttributeValue.S) v)
                        .value()
                        .codePointCount(0, ((AttributeValue.S) v).value().length());
                break;
            case B:
                n = ((AttributeValue.B) v).value().length;
                break;
            case SS:
                n = ((AttributeValue.SS) v).values().size();
                break;
            case NS:
                n = ((AttributeValue.NS) v).values().size();
                break;
            case BS:
                n = ((AttributeValue.BS) v).values().size();
                break;
            case L:
                n = ((AttributeValue.L) v).values().size();
                break;
            case M:
                n = ((AttributeValue.M) v).values().size();
                break;
            default:
                return null;
        }
        return new AttributeValue.N(DynamoNumber.of(n));
    }
}
