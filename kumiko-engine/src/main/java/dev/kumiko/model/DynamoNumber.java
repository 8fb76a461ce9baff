package dev.kumiko.model;

import dev.kumiko.error.DynamoException;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.jspecify.annotations.Nullable;

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
    /**
     * Digits of a number parsed without BigDecimal's parser: exact in a long, far below 38
     * significant digits, and at least 1E-17 in magnitude, so always within DynamoDB's range.
     */
    static final int CANONICAL_DIGITS_MAX = 18;

    public static final DynamoNumber ZERO = new DynamoNumber(BigDecimal.ZERO);

    private final BigDecimal value;
    // Kept from the wire when it was already canonical, else printed on first use (a benign race).
    private @Nullable String text;

    private DynamoNumber(BigDecimal normalized) {
        this.value = normalized;
    }

    /** Parses and validates wire text, with DynamoDB's messages for each failure. */
    public static DynamoNumber parse(String text) {
        DynamoNumber canonical = parseCanonical(text);
        if (canonical != null) {
            return canonical;
        }
        BigDecimal parsed = parseDecimal(text);
        return of(parsed);
    }

    /**
     * Most numbers on the wire are short and plain: digits, at most one point, an optional '-', no
     * exponent, no leading zero. Such a text with at most {@link #CANONICAL_DIGITS_MAX} digits has a
     * value exact in a long, within precision and range, and is built without BigDecimal's string
     * parser. Its output form (DynamoDB's: no trailing zero after a point, no point without a
     * fraction, "0" for any zero) is the text itself, or the text cut before its trailing
     * fractional zeros ("12.50" is "12.5", "3.00" is "3"), so it is kept instead of being printed
     * again from the value for every encoding. Null for any other text.
     */
    static @Nullable DynamoNumber parseCanonical(String text) {
        int length = text.length();
        int i = length > 0 && text.charAt(0) == '-' ? 1 : 0;
        int firstDigit = i;
        long unscaled = 0;
        int digits = 0;
        int point = -1;
        for (; i < length; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                unscaled = unscaled * 10 + (c - '0');
                digits++;
            } else if (c == '.' && point < 0) {
                point = i;
            } else {
                return null;
            }
        }
        if (digits == 0 || digits > CANONICAL_DIGITS_MAX || point == length - 1 || point == firstDigit) {
            return null; // empty, too long, "1." or ".5"
        }
        boolean leadingZero = text.charAt(firstDigit) == '0' && length - firstDigit > 1 && point != firstDigit + 1;
        if (leadingZero) {
            return null; // "007", "-01.5" are printed otherwise
        }
        if (unscaled == 0) {
            return ZERO; // "0", "-0", "0.00": DynamoDB answers "0"
        }
        int scale = point < 0 ? 0 : length - point - 1;
        int end = length;
        while (scale > 0 && unscaled % 10 == 0) {
            unscaled /= 10;
            scale--;
            end--;
        }
        if (point >= 0 && scale == 0) {
            end = point; // "3.00" is "3"
        }
        BigDecimal value = BigDecimal.valueOf(firstDigit == 1 ? -unscaled : unscaled, scale);
        // Held normalized: only an integer can still end in zeros here ("120", or "120.0" after the cut).
        DynamoNumber n = new DynamoNumber(scale == 0 && unscaled % 10 == 0 ? value.stripTrailingZeros() : value);
        n.text = end == length ? text : text.substring(0, end);
        return n;
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
