package dev.kumiko.expr;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Equality and ordering of attribute values by DynamoDB's rules. Pure functions. */
final class Values {
    private Values() {}

    static boolean isOrderable(AttributeType t) {
        return t == AttributeType.S || t == AttributeType.N || t == AttributeType.B;
    }

    /** Deep equality: numbers numerically, sets unordered, lists in order, maps by key. */
    static boolean equal(AttributeValue a, AttributeValue b) {
        if (a.type() != b.type()) {
            return false;
        }
        switch (a.type()) {
            case SS:
                return Set.copyOf(((AttributeValue.SS) a).values())
                        .equals(Set.copyOf(((AttributeValue.SS) b).values()));
            case NS:
                return numberSet(((AttributeValue.NS) a).values()).equals(numberSet(((AttributeValue.NS) b).values()));
            case BS:
                return binarySet(((AttributeValue.BS) a).values()).equals(binarySet(((AttributeValue.BS) b).values()));
            case L:
                return listsEqual(((AttributeValue.L) a).values(), ((AttributeValue.L) b).values());
            case M:
                return mapsEqual(((AttributeValue.M) a).values(), ((AttributeValue.M) b).values());
            default:
                return a.equals(b); // S, N (DynamoNumber.equals is numeric), B, NULL, BOOL
        }
    }

    /** Orders two values of the same orderable type (S, N or B). */
    static int compare(AttributeValue a, AttributeValue b) {
        assert a.type() == b.type() && isOrderable(a.type());
        switch (a.type()) {
            case S:
                return compareStrings(((AttributeValue.S) a).value(), ((AttributeValue.S) b).value());
            case N:
                return ((AttributeValue.N) a).value().compareTo(((AttributeValue.N) b).value());
            case B:
                return Arrays.compareUnsigned(((AttributeValue.B) a).value(), ((AttributeValue.B) b).value());
            default:
                throw new AssertionError(a.type());
        }
    }

    /** UTF-8 byte order equals code point order; String.compareTo (UTF-16 units) differs above U+D7FF. */
    static int compareStrings(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    static boolean startsWith(byte[] value, byte[] prefix) {
        return value.length >= prefix.length && Arrays.equals(value, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** Where {@code part} first occurs in {@code whole}, or -1 (the empty part occurs at 0). */
    static int indexOf(byte[] whole, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= whole.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (whole[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static Set<DynamoNumber> numberSet(List<DynamoNumber> values) {
        return new HashSet<>(values);
    }

    static Set<ByteBuffer> binarySet(List<byte[]> values) {
        Set<ByteBuffer> set = new HashSet<>();
        for (byte[] v : values) {
            set.add(ByteBuffer.wrap(v));
        }
        return set;
    }

    private static boolean listsEqual(List<AttributeValue> a, List<AttributeValue> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!equal(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapsEqual(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, AttributeValue> e : a.entrySet()) {
            AttributeValue other = b.get(e.getKey());
            if (other == null || !equal(e.getValue(), other)) {
                return false;
            }
        }
        return true;
    }

    /** The long type name DynamoDB uses in update operand-type errors (e.g. STRING). */
    static String longTypeName(AttributeType t) {
        switch (t) {
            case S:
                return "STRING";
            case N:
                return "NUMBER";
            case B:
                return "BINARY";
            case BOOL:
                return "BOOLEAN";
            case NULL:
                return "NULL";
            case M:
                return "MAP";
            case L:
                return "LIST";
            // Set names unverified against DynamoDB.
            case SS:
                return "STRING_SET";
            case NS:
                return "NUMBER_SET";
            case BS:
                return "BINARY_SET";
            default:
                throw new AssertionError(t);
        }
    }

    /** {@code AttributeValue: {N:5}}, the form DynamoDB prints operands in (scalars verified by reports). */
    static String describe(AttributeValue v) {
        return "AttributeValue: {" + v.type().wireName() + ":" + scalarText(v) + "}";
    }

    private static String scalarText(AttributeValue v) {
        switch (v.type()) {
            case S:
                return ((AttributeValue.S) v).value();
            case N:
                return ((AttributeValue.N) v).value().toString();
            case B:
                return Base64.getEncoder().encodeToString(((AttributeValue.B) v).value());
            default:
                return v.toString();
        }
    }
}
