package dev.kumiko.expr;

import java.util.ArrayList;
import java.util.List;

/** Splits expression text into tokens. Never fails: unknown characters become UNKNOWN tokens. */
final class Lexer {
    private final String source;
    private int pos;

    private Lexer(String source) {
        this.source = source;
    }

    static List<Token> tokenize(String source) {
        Lexer lexer = new Lexer(source);
        List<Token> tokens = new ArrayList<>();
        Token t;
        do {
            t = lexer.next();
            tokens.add(t);
        } while (t.kind() != Token.Kind.EOF);
        return tokens;
    }

    private Token next() {
        skipWhitespace();
        if (pos >= source.length()) {
            return new Token(Token.Kind.EOF, "", pos, pos);
        }
        int start = pos;
        char c = source.charAt(pos);
        if (isNameStart(c)) {
            return word(Token.Kind.NAME, start);
        }
        if (c >= '0' && c <= '9') {
            while (pos < source.length() && isDigit(source.charAt(pos))) {
                pos++;
            }
            return token(Token.Kind.INTEGER, start);
        }
        if ((c == '#' || c == ':') && pos + 1 < source.length() && isNamePart(source.charAt(pos + 1))) {
            pos++;
            return word(c == '#' ? Token.Kind.NAME_PLACEHOLDER : Token.Kind.VALUE_PLACEHOLDER, start);
        }
        return symbol(c, start);
    }

    private Token symbol(char c, int start) {
        pos++;
        switch (c) {
            case '(':
                return token(Token.Kind.LPAREN, start);
            case ')':
                return token(Token.Kind.RPAREN, start);
            case '[':
                return token(Token.Kind.LBRACKET, start);
            case ']':
                return token(Token.Kind.RBRACKET, start);
            case ',':
                return token(Token.Kind.COMMA, start);
            case '.':
                return token(Token.Kind.DOT, start);
            case '+':
                return token(Token.Kind.PLUS, start);
            case '-':
                return token(Token.Kind.MINUS, start);
            case '=':
                return token(Token.Kind.EQ, start);
            case '<':
                return lessThan(start);
            case '>':
                return twoChar('=', Token.Kind.GE, Token.Kind.GT, start);
            default:
                if (Character.isHighSurrogate(c) && pos < source.length()) {
                    pos++;
                }
                return token(Token.Kind.UNKNOWN, start);
        }
    }

    private Token lessThan(int start) {
        if (pos < source.length() && source.charAt(pos) == '>') {
            pos++;
            return token(Token.Kind.NE, start);
        }
        return twoChar('=', Token.Kind.LE, Token.Kind.LT, start);
    }

    private Token twoChar(char second, Token.Kind two, Token.Kind one, int start) {
        if (pos < source.length() && source.charAt(pos) == second) {
            pos++;
            return token(two, start);
        }
        return token(one, start);
    }

    private Token word(Token.Kind kind, int start) {
        while (pos < source.length() && isNamePart(source.charAt(pos))) {
            pos++;
        }
        return token(kind, start);
    }

    private Token token(Token.Kind kind, int start) {
        return new Token(kind, source.substring(start, pos), start, pos);
    }

    private void skipWhitespace() {
        while (pos < source.length() && Character.isWhitespace(source.charAt(pos))) {
            pos++;
        }
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || isDigit(c);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
