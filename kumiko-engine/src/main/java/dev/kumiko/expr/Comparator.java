package dev.kumiko.expr;

/** The six comparators of the condition grammar. */
public enum Comparator {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    Comparator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** The comparator that holds with its operands swapped: {@code a < b} iff {@code b > a}. */
    public Comparator flipped() {
        switch (this) {
            case LT:
                return GT;
            case LE:
                return GE;
            case GT:
                return LT;
            case GE:
                return LE;
            default:
                return this;
        }
    }
}
