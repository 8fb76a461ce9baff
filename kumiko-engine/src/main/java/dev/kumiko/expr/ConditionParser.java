package dev.kumiko.expr;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Recursive descent over the condition grammar (Developer Guide, "Condition and filter
 * expressions, operators, and functions"). Precedence, lowest first: OR, AND, NOT, then
 * comparisons, BETWEEN, IN and functions; parentheses override.
 */
final class ConditionParser extends ParserBase {
    /** Documented: "The list can contain up to 100 values". */
    static final int IN_OPERANDS_MAX = 100;

    /** A parsed sub-condition and whether it was wrapped in parentheses directly. */
    private record Parsed(Condition condition, boolean parenthesized) {}

    private ConditionParser(String source, ExpressionKind kind) {
        super(source, kind);
    }

    static Condition parse(String source, ExpressionKind kind) {
        assert kind.usesConditionGrammar();
        ConditionParser parser = new ConditionParser(source, kind);
        Parsed parsed = parser.parseOr(0);
        parser.expectEnd();
        return parsed.condition();
    }

    private Parsed parseOr(int depth) {
        Parsed left = parseAnd(depth);
        while (peek().isKeyword("OR")) {
            next();
            countOperator();
            Parsed right = parseAnd(depth);
            left = new Parsed(new Condition.Or(left.condition(), right.condition()), false);
        }
        return left;
    }

    private Parsed parseAnd(int depth) {
        Parsed left = parseNot(depth);
        while (peek().isKeyword("AND")) {
            next();
            countOperator();
            Parsed right = parseNot(depth);
            left = new Parsed(new Condition.And(left.condition(), right.condition()), false);
        }
        return left;
    }

    private Parsed parseNot(int depth) {
        if (peek().isKeyword("NOT")) {
            Token not = next();
            checkDepth(depth, not);
            countOperator();
            Parsed operand = parseNot(depth + 1);
            return new Parsed(new Condition.Not(operand.condition()), false);
        }
        return parsePrimary(depth);
    }

    private Parsed parsePrimary(int depth) {
        if (atParenthesisedOperandFunction() && comparesAfter(closingOfParenthesisedFunction())) {
            // "(size(b)) = :b": the parentheses hold an operand, not a condition.
            Operand left = parseOperand();
            return new Parsed(parseComparisonTail(left), false);
        }
        if (at(Token.Kind.LPAREN)) {
            Token open = next();
            checkDepth(depth, open);
            Parsed inner = parseOr(depth + 1);
            expect(Token.Kind.RPAREN);
            if (inner.parenthesized()) {
                // From a user report: "Invalid ConditionExpression: The expression has redundant
                // parentheses"; the trailing ';' follows DynamoDB's other sentence-style messages.
                throw kind.invalid("The expression has redundant parentheses;");
            }
            return new Parsed(inner.condition(), true);
        }
        if (atFunctionCall()) {
            String name = peek().text();
            if (isConditionFunction(name)) {
                return new Parsed(parseConditionFunction(), false);
            }
        }
        Operand left = parseOperand();
        return new Parsed(parseComparisonTail(left), false);
    }

    private void checkDepth(int depth, Token t) {
        if (depth >= NESTING_DEPTH_MAX) {
            throw syntaxError(t);
        }
    }

    private Condition parseConditionFunction() {
        String name = next().text();
        countOperator();
        List<Operand> args = parseArguments(this::parseOperand);
        if (atComparisonOperator()) {
            throw functionNotAllowed(name);
        }
        switch (name) {
            case "attribute_exists":
                checkArgumentCount(name, args, 1);
                requirePath(name, args.get(0));
                return new Condition.AttributeExists(args.get(0));
            case "attribute_not_exists":
                checkArgumentCount(name, args, 1);
                requirePath(name, args.get(0));
                return new Condition.AttributeNotExists(args.get(0));
            case "attribute_type":
                // DynamoDB also accepts a value as the first operand (its type is then tested).
                checkArgumentCount(name, args, 2);
                return new Condition.AttributeTypeIs(args.get(0), args.get(1));
            case "begins_with":
                checkArgumentCount(name, args, 2);
                return new Condition.BeginsWith(args.get(0), args.get(1));
            case "contains":
                checkArgumentCount(name, args, 2);
                return new Condition.Contains(args.get(0), args.get(1));
            default:
                throw new AssertionError(name);
        }
    }

    private boolean atComparisonOperator() {
        return comparator(peek()) != null || peek().isKeyword("BETWEEN") || peek().isKeyword("IN");
    }

    private Condition parseComparisonTail(Operand left) {
        Token t = peek();
        Comparator comparator = comparator(t);
        if (comparator != null) {
            next();
            countOperator();
            return new Condition.Compare(comparator, left, parseOperand());
        }
        if (t.isKeyword("BETWEEN")) {
            next();
            countOperator();
            Operand lower = parseOperand();
            if (!peek().isKeyword("AND")) {
                throw syntaxError(peek());
            }
            next();
            return new Condition.Between(left, lower, parseOperand());
        }
        if (t.isKeyword("IN")) {
            next();
            countOperator();
            return new Condition.In(left, parseInList());
        }
        if (left instanceof Operand.Size) {
            throw functionNotAllowed("size");
        }
        throw syntaxError(t);
    }

    private List<Operand> parseInList() {
        expect(Token.Kind.LPAREN);
        List<Operand> candidates = new ArrayList<>();
        candidates.add(parseOperand());
        while (at(Token.Kind.COMMA)) {
            next();
            candidates.add(parseOperand());
        }
        expect(Token.Kind.RPAREN);
        if (candidates.size() > IN_OPERANDS_MAX) {
            // Limit documented; message wording not verified.
            throw kind.invalid(
                    "The IN operator is provided with too many operands; number of operands: " + candidates.size());
        }
        return candidates;
    }

    /** path | :value | size(operand) | ( size(operand) ). */
    private Operand parseOperand() {
        Token t = peek();
        if (t.kind() == Token.Kind.VALUE_PLACEHOLDER) {
            next();
            return new Operand.ValueRef(t.text());
        }
        if (atParenthesisedOperandFunction()) {
            next();
            Operand function = parseOperandFunction();
            expect(Token.Kind.RPAREN);
            return function;
        }
        if (atFunctionCall()) {
            return parseOperandFunction();
        }
        return parsePath();
    }

    private Operand parseOperandFunction() {
        String name = next().text();
        if (name.equals("size")) {
            countOperator();
            List<Operand> args = parseArguments(this::parseOperand);
            checkArgumentCount(name, args, 1);
            return new Operand.Size(args.get(0));
        }
        if (isConditionFunction(name) || isUpdateFunction(name)) {
            throw functionNotAllowed(name);
        }
        throw unknownFunction(name);
    }

    /**
     * Whether the next tokens are {@code ( size ( ... ) )}: one pair of parentheses around exactly
     * one call of the operand function. DynamoDB takes that as the operand itself.
     */
    private boolean atParenthesisedOperandFunction() {
        return at(Token.Kind.LPAREN)
                && peekAhead(1).kind() == Token.Kind.NAME
                && peekAhead(1).text().equals("size")
                && peekAhead(2).kind() == Token.Kind.LPAREN
                && closingOfParenthesisedFunction() > 0;
    }

    /**
     * The offset (from the current token) of the ')' that closes {@code ( size ( ... ) )}, or -1
     * when the call's own ')' is not directly followed by one. The scan stops at the end of input.
     */
    private int closingOfParenthesisedFunction() {
        int depth = 0;
        for (int i = 2; ; i++) {
            Token t = peekAhead(i);
            if (t.kind() == Token.Kind.EOF) {
                return -1;
            }
            if (t.kind() == Token.Kind.LPAREN) {
                depth++;
            } else if (t.kind() == Token.Kind.RPAREN && --depth == 0) {
                return peekAhead(i + 1).kind() == Token.Kind.RPAREN ? i + 1 : -1;
            }
        }
    }

    /** Whether the token after the given offset starts a comparison, BETWEEN or IN. */
    private boolean comparesAfter(int offset) {
        Token t = peekAhead(offset + 1);
        return comparator(t) != null || t.isKeyword("BETWEEN") || t.isKeyword("IN");
    }

    private static @Nullable Comparator comparator(Token t) {
        switch (t.kind()) {
            case EQ:
                return Comparator.EQ;
            case NE:
                return Comparator.NE;
            case LT:
                return Comparator.LT;
            case LE:
                return Comparator.LE;
            case GT:
                return Comparator.GT;
            case GE:
                return Comparator.GE;
            default:
                return null;
        }
    }
}
