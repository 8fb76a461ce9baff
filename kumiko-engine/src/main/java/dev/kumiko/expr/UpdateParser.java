package dev.kumiko.expr;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Parses {@code SET ... REMOVE ... ADD ... DELETE ...}: clauses in any order, each at most once
 * (Developer Guide, "Using update expressions in DynamoDB").
 */
final class UpdateParser extends ParserBase {
    private enum Clause {
        SET,
        REMOVE,
        ADD,
        DELETE
    }

    private UpdateParser(String source) {
        super(source, ExpressionKind.UPDATE);
    }

    static UpdateExpression parse(String source) {
        UpdateParser parser = new UpdateParser(source);
        return new UpdateExpression(parser.parseClauses());
    }

    private List<UpdateAction> parseClauses() {
        Set<Clause> seen = EnumSet.noneOf(Clause.class);
        List<UpdateAction> actions = new ArrayList<>();
        do {
            Token t = next();
            Clause clause = clause(t);
            if (clause == null) {
                throw syntaxError(t);
            }
            if (!seen.add(clause)) {
                throw kind.invalid("The \"" + clause + "\" section can only be used once in an update expression;");
            }
            actions.add(parseAction(clause));
            while (at(Token.Kind.COMMA)) {
                next();
                actions.add(parseAction(clause));
            }
        } while (!at(Token.Kind.EOF));
        expectEnd();
        return actions;
    }

    private static @Nullable Clause clause(Token t) {
        if (t.kind() != Token.Kind.NAME) {
            return null;
        }
        switch (t.text().toUpperCase(Locale.ROOT)) {
            case "SET":
                return Clause.SET;
            case "REMOVE":
                return Clause.REMOVE;
            case "ADD":
                return Clause.ADD;
            case "DELETE":
                return Clause.DELETE;
            default:
                return null;
        }
    }

    private UpdateAction parseAction(Clause clause) {
        Operand.Path path = parsePath();
        switch (clause) {
            case SET:
                expect(Token.Kind.EQ);
                return new UpdateAction.Set(path, parseSetValue());
            case REMOVE:
                return new UpdateAction.Remove(path);
            case ADD:
                return new UpdateAction.Add(path, parseValueRef());
            case DELETE:
                return new UpdateAction.Delete(path, parseValueRef());
            default:
                throw new AssertionError(clause);
        }
    }

    private Operand parseValueRef() {
        Token t = expect(Token.Kind.VALUE_PLACEHOLDER);
        return new Operand.ValueRef(t.text());
    }

    /** operand | operand '+' operand | operand '-' operand. */
    private Operand parseSetValue() {
        Operand left = parseSetOperand();
        if (at(Token.Kind.PLUS) || at(Token.Kind.MINUS)) {
            boolean plus = next().kind() == Token.Kind.PLUS;
            countOperator();
            return new Operand.Arithmetic(plus, left, parseSetOperand());
        }
        return left;
    }

    /**
     * path | :value | if_not_exists(path, operand) | list_append(operand, operand) | '(' value ')'.
     * DynamoDB accepts a parenthesised operand; ElectroDB sends {@code (if_not_exists(#x, :d) - :v)}.
     */
    private Operand parseSetOperand() {
        Token t = peek();
        if (t.kind() == Token.Kind.LPAREN) {
            next();
            Operand inner = parseSetValue();
            expect(Token.Kind.RPAREN);
            return inner;
        }
        if (t.kind() == Token.Kind.VALUE_PLACEHOLDER) {
            next();
            return new Operand.ValueRef(t.text());
        }
        if (atFunctionCall()) {
            return parseFunction();
        }
        return parsePath();
    }

    private Operand parseFunction() {
        String name = next().text();
        if (!isUpdateFunction(name)) {
            if (isConditionFunction(name) || name.equals("size")) {
                throw functionNotAllowed(name);
            }
            throw unknownFunction(name);
        }
        countOperator();
        List<Operand> args = parseArguments(this::parseSetOperand);
        checkArgumentCount(name, args, 2);
        if (name.equals("if_not_exists")) {
            requirePath(name, args.get(0));
            return new Operand.IfNotExists(args.get(0), args.get(1));
        }
        for (Operand arg : args) {
            if (arg instanceof Operand.ListAppend) {
                // A list_append inside list_append is refused. UNVERIFIED: behaviour and wording (the
                // prefix is DynamoDB's text for a function used where it is not allowed).
                throw functionNotAllowed(name);
            }
        }
        return new Operand.ListAppend(args.get(0), args.get(1));
    }
}
