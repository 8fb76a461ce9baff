package dev.kumiko.partiql;

/**
 * One token of a PartiQL statement. {@code text} is the identifier, the string's content (quotes
 * removed, doubled quotes undone) or the symbol; {@code line} and {@code column} count from 1, as
 * DynamoDB's "at line:column:length" positions do.
 */
record PqToken(Kind kind, String text, int line, int column, int length) {

    enum Kind {
        /** A bare identifier or keyword; keywords are recognised case-insensitively by the parser. */
        WORD,
        /** A "double-quoted" identifier: never a keyword. */
        QUOTED,
        /** A 'single-quoted' string literal. */
        STRING,
        NUMBER,
        SYMBOL,
        EOF
    }

    boolean isWord(String keyword) {
        return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    /** DynamoDB's position suffix: {@code line:column:length}. */
    String position() {
        return line + ":" + column + ":" + length;
    }
}
