package dev.kumiko.model;

import dev.kumiko.error.DynamoException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A DynamoDB Number: up to 38 significant digits, magnitude between 1E-130 and
 * 9.99...E+125 (or zero). Held normalized (trailing zeros stripped) so that equal numbers have
 * equal representations, and printed the way DynamoDB returns numbers: plain notation, no
 * exponent, no trailing zeros ("1.50" and "15E-1" both come back as "1.5").
 */
public final class DynamoNumber implements Comparable<DynamoNumber> {
    public static final int SIGNIFICANT_DIGITS_MAX = 38;
    /** Smallest magnitude exponent in BigDecimal terms: 1E-130 is the smallest positive value. */
    private static final BigDecimal MAGNITUDE_MIN = new BigDecimal("1E-130");
    /** Values at or above 1E+126 overflow: the largest is 9.99...(38 nines)E+125. */
    private static final BigDecimal MAGNITUDE_LIMIT = new BigDecimal("1E+126");
    /** Longest input text accepted before parsing; guards BigDecimal against absurd exponents. */
    private static final int TEXT_LENGTH_MAX = 1024;

    public static final DynamoNumber ZERO = new DynamoNumber(BigDecimal.ZERO);

    private final BigDecimal value;
    private String text;

    private DynamoNumber(BigDecimal normalized) {
        this.value = normalized;
    }

    /** Parses and validates wire text, with DynamoDB's messages for each failure. */
    public static DynamoNumber parse(String text) {
        BigDecimal parsed = parseDecimal(text);
        return of(parsed);
    }

    public static DynamoNumber of(long value) {
        return of(BigDecimal.valueOf(value));
    }

    /** Validates range and precision of a computed value (e.g. the result of ADD or SET a + b). */
    public static DynamoNumber of(BigDecimal value) {
        BigDecimal normalized = normalize(value);
        checkPrecision(normalized);
        checkRange(normalized);
        return new DynamoNumber(normalized);
    }

    private static BigDecimal parseDecimal(String text) {
        if (text.isEmpty() || text.length() > TEXT_LENGTH_MAX || !looksNumeric(text)) {
            throw notNumeric(text);
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException | ArithmeticException e) {
            throw notNumeric(text);
        }
    }

    /** BigDecimal also accepts forms DynamoDB does not; only digits, one point, sign, exponent. */
    private static boolean looksNumeric(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static DynamoException notNumeric(String text) {
        return DynamoException.validation("The parameter cannot be converted to a numeric value: " + text);
    }

    private static BigDecimal normalize(BigDecimal value) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO;
        }
        return value.stripTrailingZeros();
    }

    private static void checkPrecision(BigDecimal normalized) {
        if (normalized.precision() > SIGNIFICANT_DIGITS_MAX) {
            throw DynamoException.validation("Attempting to store more than 38 significant digits in a Number");
        }
    }

    private static void checkRange(BigDecimal normalized) {
        if (normalized.signum() == 0) {
            return;
        }
        BigDecimal magnitude = normalized.abs();
        if (magnitude.compareTo(MAGNITUDE_LIMIT) >= 0) {
            throw DynamoException.validation(
                    "Number overflow. Attempting to store a number with magnitude larger than supported range");
        }
        if (magnitude.compareTo(MAGNITUDE_MIN) < 0) {
            throw DynamoException.validation(
                    "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        }
    }

    public BigDecimal value() {
        return value;
    }

    public int signum() {
        return value.signum();
    }

    /** Significant digits after trimming leading and trailing zeros; zero counts as one. */
    public int significantDigits() {
        return value.signum() == 0 ? 1 : value.precision();
    }

    /**
     * Decimal exponent e of the normalized form 0.d1d2...dn x 10^e (d1 != 0); used by the
     * order-preserving key encoding. Undefined for zero.
     */
    public int exponent() {
        return value.precision() - value.scale();
    }

    /** The significant digits as ASCII, without sign or point. */
    public String digits() {
        BigInteger unscaled = value.unscaledValue().abs();
        return unscaled.toString();
    }

    public DynamoNumber add(DynamoNumber other) {
        return of(value.add(other.value));
    }

    public DynamoNumber subtract(DynamoNumber other) {
        return of(value.subtract(other.value));
    }

    @Override
    public int compareTo(DynamoNumber other) {
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DynamoNumber other && value.compareTo(other.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /** DynamoDB's output form: plain notation, normalized. */
    @Override
    public String toString() {
        String t = text;
        if (t == null) {
            t = value.toPlainString();
            text = t;
        }
        return t;
    }
}
