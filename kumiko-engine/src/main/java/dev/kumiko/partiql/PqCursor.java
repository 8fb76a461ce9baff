package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The token stream of one statement and the parameters its {@code ?} markers bind to, in order.
 * A marker past the last parameter binds to NULL so parsing can finish and report a syntax error
 * first; {@link #checkParameterCount} then reports the mismatch.
 */
final class PqCursor {
    private final List<PqToken> tokens;
    private final List<AttributeValue> parameters;
    private int pos;
    private int markers;

    PqCursor(List<PqToken> tokens, @Nullable List<AttributeValue> parameters) {
        this.tokens = tokens;
        this.parameters = parameters == null ? List.of() : parameters;
    }

    PqToken peek() {
        return tokens.get(pos);
    }

    PqToken peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    PqToken next() {
        PqToken t = tokens.get(pos);
        if (t.kind() != PqToken.Kind.EOF) {
            pos++;
        }
        return t;
    }

    boolean acceptWord(String keyword) {
        if (peek().isWord(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    void expectWord(String keyword) {
        if (!acceptWord(keyword)) {
            throw PqErrors.unexpected(peek());
        }
    }

    void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw PqErrors.unexpected(peek());
        }
    }

    boolean atEnd() {
        return peek().kind() == PqToken.Kind.EOF;
    }

    /** The value the next {@code ?} stands for. */
    AttributeValue bindParameter() {
        int index = markers++;
        return index < parameters.size() ? parameters.get(index) : new AttributeValue.Null();
    }

    void checkParameterCount() {
        if (markers != parameters.size()) {
            throw PqErrors.validation(PqErrors.PARAMETER_COUNT);
        }
    }
}
