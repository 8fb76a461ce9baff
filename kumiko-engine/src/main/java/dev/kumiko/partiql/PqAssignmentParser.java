package dev.kumiko.partiql;

import dev.kumiko.expr.Operand;
import dev.kumiko.expr.UpdateAction;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One {@code SET path = value} of an UPDATE. The value is a literal, a path, {@code a + b},
 * {@code a - b}, list_append, if_not_exists, or set_add / set_delete, which become the update
 * expression's ADD and DELETE actions.
 */
final class PqAssignmentParser {
    private final PqCursor in;
    private final PqValueParser values;
    private final PqConditionParser conditions;

    PqAssignmentParser(PqCursor in, PqValueParser values, PqConditionParser conditions) {
        this.in = in;
        this.values = values;
        this.conditions = conditions;
    }

    UpdateAction assignment() {
        Operand.Path target = conditions.path();
        in.expectSymbol("=");
        PqToken t = in.peek();
        if (isCall(t, "set_add") || isCall(t, "set_delete")) {
            return setFunction(target);
        }
        Operand value = term();
        if (in.peek().isSymbol("+") || in.peek().isSymbol("-")) {
            boolean plus = in.next().isSymbol("+");
            value = new Operand.Arithmetic(plus, value, term());
        }
        return new UpdateAction.Set(target, value);
    }

    private Operand term() {
        PqToken t = in.peek();
        if (isCall(t, "list_append")) {
            List<Operand> args = arguments(2);
            return new Operand.ListAppend(args.get(0), args.get(1));
        }
        if (isCall(t, "if_not_exists")) {
            List<Operand> args = arguments(2);
            if (!(args.get(0) instanceof Operand.Path)) {
                throw PqErrors.validation(
                        "Operator or function requires a document path; operator or function: " + "if_not_exists");
            }
            return new Operand.IfNotExists(args.get(0), args.get(1));
        }
        if (values.atValue()) {
            return new Operand.Literal(values.value());
        }
        return conditions.path();
    }

    private List<Operand> arguments(int n) {
        PqToken name = in.next();
        in.expectSymbol("(");
        List<Operand> args = new ArrayList<>();
        do {
            args.add(term());
        } while (in.acceptSymbol(","));
        in.expectSymbol(")");
        if (args.size() != n) {
            throw PqErrors.validation("Incorrect number of operands for operator or function; operator or function: "
                    + name.text().toLowerCase(Locale.ROOT) + ", number of operands: " + args.size());
        }
        return args;
    }

    /** Observed messages, each with the position DynamoDB points at. */
    private UpdateAction setFunction(Operand.Path target) {
        PqToken name = in.next();
        String fn = name.text().toUpperCase(Locale.ROOT);
        in.expectSymbol("(");
        PqToken firstToken = in.peek();
        List<Operand> args = new ArrayList<>();
        do {
            args.add(values.atValue() ? new Operand.Literal(values.value()) : conditions.path());
        } while (in.acceptSymbol(","));
        in.expectSymbol(")");
        if (args.size() != 2) {
            throw PqErrors.validation(fn + " must have exactly two arguments at " + name.position());
        }
        if (!target.equals(args.get(0))) {
            throw PqErrors.validation(
                    "The first argument to " + fn + " must equal the assignment value at " + name.position());
        }
        if (!(args.get(1) instanceof Operand.Literal lit) || !isSet(lit.value())) {
            throw PqErrors.validation(
                    "The second argument to " + fn + " must be a value with type SET at " + firstToken.position());
        }
        return fn.equals("SET_ADD") ? new UpdateAction.Add(target, lit) : new UpdateAction.Delete(target, lit);
    }

    private static boolean isSet(AttributeValue v) {
        AttributeType t = v.type();
        return t == AttributeType.SS || t == AttributeType.NS || t == AttributeType.BS;
    }

    private boolean isCall(PqToken t, String fn) {
        return t.kind() == PqToken.Kind.WORD
                && t.text().equalsIgnoreCase(fn)
                && in.peek(1).isSymbol("(");
    }
}
