package dev.kumiko.model;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One DynamoDB attribute value. A closed set: exactly one of DynamoDB's ten types. Instances are
 * immutable; collections handed in are owned by the value and must not be changed afterwards.
 * Construction does no validation: {@link AttributeValidator} checks wire input once.
 */
public sealed interface AttributeValue {

    AttributeType type();

    record S(String value) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.S;
        }
    }

    record N(DynamoNumber value) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.N;
        }
    }

    /** Binary; the array is owned by the value. */
    record B(byte[] value) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.B;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof B other && Arrays.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "B[" + value.length + " bytes]";
        }
    }

    /** String set, in the order it was given (DynamoDB sets are unordered). */
    record SS(List<String> values) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.SS;
        }
    }

    record NS(List<DynamoNumber> values) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.NS;
        }
    }

    record BS(List<byte[]> values) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.BS;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof BS other) || other.values.size() != values.size()) {
                return false;
            }
            for (int i = 0; i < values.size(); i++) {
                if (!Arrays.equals(values.get(i), other.values.get(i))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int h = 1;
            for (byte[] v : values) {
                h = 31 * h + Arrays.hashCode(v);
            }
            return h;
        }
    }

    /** Map; insertion-ordered so that responses echo the client's order. */
    record M(Map<String, AttributeValue> values) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.M;
        }
    }

    record L(List<AttributeValue> values) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.L;
        }
    }

    record Null() implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.NULL;
        }
    }

    record Bool(boolean value) implements AttributeValue {
        @Override
        public AttributeType type() {
            return AttributeType.BOOL;
        }
    }

    Null NULL = new Null();
    Bool TRUE = new Bool(true);
    Bool FALSE = new Bool(false);

    static S s(String value) {
        return new S(value);
    }

    static N n(String value) {
        return new N(DynamoNumber.parse(value));
    }

    static N n(long value) {
        return new N(DynamoNumber.of(value));
    }

    static B b(byte[] value) {
        return new B(value);
    }

    static Bool bool(boolean value) {
        return value ? TRUE : FALSE;
    }

    static M m(Map<String, AttributeValue> values) {
        return new M(Collections.unmodifiableMap(values));
    }

    static L l(List<AttributeValue> values) {
        return new L(Collections.unmodifiableList(values));
    }
}
