package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Token cursor and the pieces every grammar shares: document paths, syntax errors in DynamoDB's
 * form, reserved-word checks and the operator budget.
 */
abstract class ParserBase {
    /** DynamoDB's documented cap on operators and functions in one expression. */
    static final int OPERATORS_MAX = 300;
    /** Parenthesis/NOT nesting cap; keeps recursion far from the JVM stack limit. */
    static final int NESTING_DEPTH_MAX = 200;
    /** The Developer Guide: "The maximum depth for a document path is 32". */
    static final int PATH_DEPTH_MAX = 32;

    final String source;
    final ExpressionKind kind;
    private final List<Token> tokens;
    private int pos;
    private int operatorCount;
    /** Reserved words are reported only once the text parses: a syntax error anywhere wins. */
    private @Nullable String firstReservedWord;

    ParserBase(String source, ExpressionKind kind) {
        this.source = source;
        this.kind = kind;
        this.tokens = Lexer.tokenize(source);
    }

    Token peek() {
        return tokens.get(pos);
    }

    Token peekAhead(int n) {
        return tokens.get(Math.min(pos + n, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Token.Kind.EOF) {
            pos++;
        }
        return t;
    }

    boolean at(Token.Kind k) {
        return peek().kind() == k;
    }

    Token expect(Token.Kind k) {
        if (!at(k)) {
            throw syntaxError(peek());
        }
        return next();
    }

    /** Expects the end of input, then reports the first bare reserved word, if any. */
    void expectEnd() {
        expect(Token.Kind.EOF);
        if (firstReservedWord != null) {
            throw kind.invalid("Attribute name is a reserved keyword; reserved keyword: " + firstReservedWord);
        }
    }

    /** Whether the next tokens are {@code name (}: a function call. */
    boolean atFunctionCall() {
        return at(Token.Kind.NAME) && peekAhead(1).kind() == Token.Kind.LPAREN;
    }

    /**
     * DynamoDB's syntax error. The "near" context is the source text from the token before the
     * offending one through the token after it; verified against messages users quoted
     * ({@code token: "<EOF>", near: "#has_air_conditioner"}, {@code token: "#", near: "G_M#)"},
     * {@code token: ")", near: "()"}).
     */
    DynamoException syntaxError(Token t) {
        int index = tokens.indexOf(t);
        Token prev = index > 0 ? tokens.get(index - 1) : null;
        Token after = t.kind() == Token.Kind.EOF ? null : tokens.get(index + 1);
        int from = prev != null ? prev.start() : t.start();
        int to = after != null && after.kind() != Token.Kind.EOF ? after.end() : t.end();
        if (t.kind() == Token.Kind.EOF && prev != null) {
            to = prev.end();
        }
        String near = source.substring(from, Math.max(from, to));
        return kind.invalid("Syntax error; token: \"" + t.display() + "\", near: \"" + near + "\"");
    }

    /** Counts one operator or function against DynamoDB's per-expression budget. */
    void countOperator() {
        operatorCount++;
        if (operatorCount > OPERATORS_MAX) {
            // Message text not verified against DynamoDB; the limit (300) is documented.
            throw kind.invalid("The expression contains too many operators; operator count: " + operatorCount);
        }
    }

    /** {@code name ( ('.' name) | '[' int ']' )*}, names bare or {@code #placeholder}. */
    Operand.Path parsePath() {
        List<PathElement> elements = new ArrayList<>();
        elements.add(parseName());
        while (true) {
            if (elements.size() > PATH_DEPTH_MAX) {
                // UNVERIFIED wording; the limit is the Developer Guide's "maximum depth for a document path".
                throw kind.invalid("The document path has too many nesting levels; nesting levels: " + elements.size());
            }
            if (at(Token.Kind.DOT)) {
                next();
                elements.add(parseName());
            } else if (at(Token.Kind.LBRACKET)) {
                next();
                elements.add(parseIndex());
                expect(Token.Kind.RBRACKET);
            } else {
                return new Operand.Path(elements);
            }
        }
    }

    private PathElement.Name parseName() {
        Token t = peek();
        if (t.kind() == Token.Kind.NAME_PLACEHOLDER) {
            next();
            return new PathElement.Name(t.text());
        }
        if (t.kind() != Token.Kind.NAME) {
            throw syntaxError(t);
        }
        if (firstReservedWord == null && ReservedWords.isReserved(t.text())) {
            firstReservedWord = t.text();
        }
        next();
        return new PathElement.Name(t.text());
    }

    private PathElement.Index parseIndex() {
        Token t = peek();
        if (t.kind() != Token.Kind.INTEGER || t.text().length() > 9) {
            throw syntaxError(t);
        }
        next();
        return new PathElement.Index(Integer.parseInt(t.text()));
    }

    /** {@code ( operand, ... )} for a function call whose name was already consumed. */
    List<Operand> parseArguments(java.util.function.Supplier<Operand> operand) {
        expect(Token.Kind.LPAREN);
        List<Operand> args = new ArrayList<>();
        if (at(Token.Kind.RPAREN)) {
            next();
            return args;
        }
        args.add(operand.get());
        while (at(Token.Kind.COMMA)) {
            next();
            args.add(operand.get());
        }
        expect(Token.Kind.RPAREN);
        return args;
    }

    void checkArgumentCount(String function, List<Operand> args, int expected) {
        if (args.size() != expected) {
            throw kind.invalid("Incorrect number of operands for operator or function; operator or function: "
                    + function + ", number of operands: " + args.size());
        }
    }

    /** Functions whose first argument must be a path. Wording recalled from DynamoDB, not verified in sources. */
    void requirePath(String function, Operand arg) {
        if (!(arg instanceof Operand.Path)) {
            throw kind.invalid("Operator or function requires a document path; operator or function: " + function);
        }
    }

    DynamoException functionNotAllowed(String function) {
        // Wording of the prefix is known from user reports; the "; function: x" suffix is unverified.
        return kind.invalid("The function is not allowed to be used this way in an expression; function: " + function);
    }

    DynamoException unknownFunction(String function) {
        return kind.invalid("Invalid function name; function: " + function);
    }

    static boolean isConditionFunction(String name) {
        switch (name) {
            case "attribute_exists":
            case "attribute_not_exists":
            case "attribute_type":
            case "begins_with":
            case "contains":
                return true;
            default:
                return false;
        }
    }

    static boolean isUpdateFunction(String name) {
        return name.equals("if_not_exists") || name.equals("list_append");
    }
}
