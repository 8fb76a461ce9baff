package dev.kumiko.partiql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a PartiQL statement into tokens. Skips whitespace, {@code -- line} and block comments;
 * anything it cannot read (a '#', an unterminated string or comment) is a statement that "wasn't
 * well formed" with nothing after the colon, as DynamoDB answers those.
 */
final class PqLexer {
    /** Two-character symbols first, so that {@code <<} is not read as two {@code <}. */
    private static final List<String> SYMBOLS = List.of(
            "<<", ">>", "<=", ">=", "<>", "!=", "=", "<", ">", "(", ")", "[", "]", "{", "}", ",", ".", ":", "?", "*",
            "+", "-", ";");

    private final String source;
    private int pos;
    private int line = 1;
    private int lineStart;

    private PqLexer(String source) {
        this.source = source;
    }

    static List<PqToken> tokenize(String source) {
        PqLexer lexer = new PqLexer(source);
        List<PqToken> tokens = new ArrayList<>();
        PqToken t;
        do {
            t = lexer.next();
            tokens.add(t);
        } while (t.kind() != PqToken.Kind.EOF);
        return tokens;
    }

    private PqToken next() {
        skipSpaceAndComments();
        int start = pos;
        if (pos >= source.length()) {
            return token(PqToken.Kind.EOF, "", start);
        }
        char c = source.charAt(pos);
        if (Character.isLetter(c) || c == '_') {
            while (pos < source.length() && isWordPart(source.charAt(pos))) {
                pos++;
            }
            return token(PqToken.Kind.WORD, source.substring(start, pos), start);
        }
        if (isDigit(c) || (c == '.' && pos + 1 < source.length() && isDigit(source.charAt(pos + 1)))) {
            return number(start);
        }
        if (c == '"' || c == '\'') {
            return quoted(c, start);
        }
        for (String s : SYMBOLS) {
            if (source.startsWith(s, pos)) {
                pos += s.length();
                return token(PqToken.Kind.SYMBOL, s, start);
            }
        }
        throw PqErrors.notWellFormed("");
    }

    private PqToken number(int start) {
        digits();
        if (pos < source.length() && source.charAt(pos) == '.') {
            pos++;
            digits();
        }
        if (pos < source.length() && (source.charAt(pos) == 'e' || source.charAt(pos) == 'E')) {
            int mark = pos;
            pos++;
            if (pos < source.length() && (source.charAt(pos) == '+' || source.charAt(pos) == '-')) {
                pos++;
            }
            if (pos >= source.length() || !isDigit(source.charAt(pos))) {
                pos = mark;
            } else {
                digits();
            }
        }
        return token(PqToken.Kind.NUMBER, source.substring(start, pos), start);
    }

    private PqToken quoted(char quote, int start) {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= source.length()) {
                throw PqErrors.notWellFormed("");
            }
            char c = source.charAt(pos++);
            if (c == quote) {
                if (pos < source.length() && source.charAt(pos) == quote) {
                    sb.append(quote);
                    pos++;
                    continue;
                }
                break;
            }
            if (c == '\n') {
                newLine();
            }
            sb.append(c);
        }
        return token(quote == '"' ? PqToken.Kind.QUOTED : PqToken.Kind.STRING, sb.toString(), start);
    }

    private void skipSpaceAndComments() {
        while (pos < source.length()) {
            char c = source.charAt(pos);
            if (c == '\n') {
                pos++;
                newLine();
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (source.startsWith("--", pos)) {
                while (pos < source.length() && source.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (source.startsWith("/*", pos)) {
                blockComment();
            } else {
                return;
            }
        }
    }

    private void blockComment() {
        int end = source.indexOf("*/", pos + 2);
        if (end < 0) {
            throw PqErrors.notWellFormed("");
        }
        for (int i = pos; i < end; i++) {
            if (source.charAt(i) == '\n') {
                pos = i + 1;
                newLine();
            }
        }
        pos = end + 2;
    }

    private void newLine() {
        line++;
        lineStart = pos;
    }

    private void digits() {
        while (pos < source.length() && isDigit(source.charAt(pos))) {
            pos++;
        }
    }

    private PqToken token(PqToken.Kind kind, String text, int start) {
        return new PqToken(kind, text, line, start - lineStart + 1, Math.max(pos - start, 1));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
