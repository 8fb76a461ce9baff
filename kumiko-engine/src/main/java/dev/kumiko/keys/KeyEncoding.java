package dev.kumiko.keys;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.nio.charset.StandardCharsets;

/**
 * Order-preserving, self-delimiting encodings of key attribute values, so that byte order of
 * encoded keys is DynamoDB's order: S by UTF-8 bytes, N numerically, B by unsigned bytes.
 *
 * <p>S and B: bytes with 0x00 escaped as 0x00 0xFF, terminated by 0x00 (a shorter string that is
 * a prefix of a longer one sorts first, as DynamoDB orders them).
 *
 * <p>N: a sign byte (negative 0x01, zero 0x02, positive 0x03); for non-zero values the decimal
 * exponent e of 0.d1d2..dn x 10^e as one byte (e + 129; DynamoDB's range keeps e in [-129, 126]),
 * then each digit as (d + 1), then a 0x00 terminator. Negative numbers invert every byte after the
 * sign (terminator 0xFF), so larger magnitudes sort first.
 */
public final class KeyEncoding {
    private static final int EXPONENT_BIAS = 129;
    private static final byte SIGN_NEGATIVE = 0x01;
    private static final byte SIGN_ZERO = 0x02;
    private static final byte SIGN_POSITIVE = 0x03;

    private KeyEncoding() {}

    public static void encode(ByteSink out, AttributeValue v) {
        switch (v.type()) {
            case S:
                encodeBytes(out, ((AttributeValue.S) v).value().getBytes(StandardCharsets.UTF_8), true);
                break;
            case B:
                encodeBytes(out, ((AttributeValue.B) v).value(), true);
                break;
            case N:
                encodeNumber(out, ((AttributeValue.N) v).value());
                break;
            default:
                throw new IllegalArgumentException("not a key type: " + v.type());
        }
    }

    /** Escaped bytes, with the terminator only when terminate is true (prefix ranges omit it). */
    public static void encodeBytes(ByteSink out, byte[] bytes, boolean terminate) {
        for (byte b : bytes) {
            out.put(b);
            if (b == 0) {
                out.put(0xFF);
            }
        }
        if (terminate) {
            out.put(0x00);
        }
    }

    public static void encodeNumber(ByteSink out, DynamoNumber n) {
        int sign = n.signum();
        if (sign == 0) {
            out.put(SIGN_ZERO);
            return;
        }
        int exponent = n.exponent() + EXPONENT_BIAS;
        assert exponent >= 0 && exponent <= 255 : "exponent out of DynamoDB's range: " + n;
        String digits = n.digits();
        boolean negative = sign < 0;
        out.put(negative ? SIGN_NEGATIVE : SIGN_POSITIVE);
        out.put(negative ? 255 - exponent : exponent);
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(i) - '0' + 1;
            out.put(negative ? 255 - d : d);
        }
        out.put(negative ? 0xFF : 0x00);
    }

    /** The encoded bytes of one key value, as a fresh array. */
    public static byte[] encode(AttributeValue v) {
        ByteSink out = new ByteSink(32);
        encode(out, v);
        return out.toArray();
    }
}
