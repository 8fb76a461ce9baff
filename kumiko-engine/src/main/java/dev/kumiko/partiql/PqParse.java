package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One statement of a request and its parse, done at most once: the authorization rule (which needs
 * the statement's action and table) and the engine read the same tree. The outcome is kept, a
 * failure too, so both see the same answer. A request is handled by one thread at a time, so the
 * memo needs no synchronization. Equal when the text and the parameters are.
 */
public final class PqParse {
    private final String text;
    private final @Nullable List<AttributeValue> parameters;
    private @Nullable PqStatement statement;
    private @Nullable RuntimeException failure;

    public PqParse(String text, @Nullable List<AttributeValue> parameters) {
        this.text = text;
        this.parameters = parameters;
    }

    /** The parsed statement; throws the parse's ValidationException, on every call the same one. */
    public PqStatement statement() {
        if (statement == null && failure == null) {
            try {
                statement = PqParser.parse(text, parameters);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return Objects.requireNonNull(statement, "parsed, as it did not fail");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PqParse p && Objects.equals(text, p.text) && Objects.equals(parameters, p.parameters);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text, parameters);
    }

    @Override
    public String toString() {
        return "PqParse[" + text + "]";
    }
}
