package dev.kumiko.expr;

import dev.kumiko.model.Utf8;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Entry point for parsing expression text, with a bounded cache: an AST depends only on the kind
 * and the text (placeholders stay unresolved), so it is parsed once and shared. Only successful
 * parses are cached; a failing text is re-parsed so its error is rebuilt each time.
 */
public final class ExpressionParser {
    /** Documented: "The maximum length of any expression string is 4 KB", measured on the raw text. */
    public static final int EXPRESSION_BYTES_MAX = 4096;
    /** Distinct expressions kept; on overflow the cache is cleared (cheap, and bounded). */
    static final int CACHE_ENTRIES_MAX = 10_000;

    private record Key(ExpressionKind kind, String text) {}

    private static final ConcurrentHashMap<Key, Object> CACHE = new ConcurrentHashMap<>();

    private ExpressionParser() {}

    public static Condition condition(String text, ExpressionKind kind) {
        return (Condition) cached(kind, text);
    }

    public static UpdateExpression update(String text) {
        return (UpdateExpression) cached(ExpressionKind.UPDATE, text);
    }

    public static ProjectionExpression projection(String text) {
        return (ProjectionExpression) cached(ExpressionKind.PROJECTION, text);
    }

    private static Object cached(ExpressionKind kind, String text) {
        Key key = new Key(kind, text);
        Object ast = CACHE.get(key);
        if (ast != null) {
            return ast;
        }
        ast = parseUncached(kind, text);
        if (CACHE.size() >= CACHE_ENTRIES_MAX) {
            CACHE.clear();
        }
        CACHE.put(key, ast);
        return ast;
    }

    static Object parseUncached(ExpressionKind kind, String text) {
        checkText(kind, text);
        switch (kind) {
            case UPDATE:
                return UpdateParser.parse(text);
            case PROJECTION:
                return ProjectionParser.parse(text);
            default:
                return ConditionParser.parse(text, kind);
        }
    }

    private static void checkText(ExpressionKind kind, String text) {
        if (text.isBlank()) {
            throw kind.invalid("The expression can not be empty;");
        }
        int bytes = Utf8.length(text);
        if (bytes > EXPRESSION_BYTES_MAX) {
            // Verified in user reports: "...maximum allowed size; expression size: 4109".
            throw kind.invalid("Expression size has exceeded the maximum allowed size; expression size: " + bytes);
        }
    }

    static int cacheSize() {
        return CACHE.size();
    }
}
