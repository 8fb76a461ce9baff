package dev.kumiko.expr;

/** One lexical token with its position in the source, kept for DynamoDB's "near" context. */
record Token(Kind kind, String text, int start, int end) {

    enum Kind {
        NAME,
        NAME_PLACEHOLDER,
        VALUE_PLACEHOLDER,
        INTEGER,
        LPAREN,
        RPAREN,
        LBRACKET,
        RBRACKET,
        COMMA,
        DOT,
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE,
        PLUS,
        MINUS,
        /** A character no rule accepts; the parser reports it as a syntax error. */
        UNKNOWN,
        EOF
    }

    /** Whether this is the bare word {@code word}, case-insensitively (keywords are). */
    boolean isKeyword(String word) {
        return kind == Kind.NAME && text.equalsIgnoreCase(word);
    }

    /** How DynamoDB names the token in syntax errors. */
    String display() {
        return kind == Kind.EOF ? "<EOF>" : text;
    }
}
