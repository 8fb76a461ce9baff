package dev.kumiko.server.protocol;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decodes wire AttributeValues ({"S": "x"}, {"M": {...}}, ...) with DynamoDB's validation: exactly
 * one type, non-empty sets without duplicates, valid numbers, NULL only true, and at most 32 levels
 * of nesting.
 */
public final class AttributeValues {
    /** DynamoDB's limit on nested lists and maps. */
    public static final int NESTING_DEPTH_MAX = 32;

    private AttributeValues() {}

    /** A map of attribute name to value (an item, a key, ExpressionAttributeValues); null if absent. */
    public static @Nullable Map<String, AttributeValue> item(Map<String, Object> obj, String name) {
        Object v = obj.get(name);
        if (v instanceof DecodedAttributes decoded) {
            return decoded.get();
        }
        if (v instanceof List) {
            // Observed from DynamoDB for a list where an attribute map belongs (Coral's own text).
            throw DynamoException.serialization("Unrecognized collection type java.util.Map<java.lang.String, "
                    + "com.amazonaws.dynamodb.v20120810.AttributeValue>");
        }
        Map<String, Object> raw = Fields.object(obj, name);
        return raw == null ? null : decodeMap(raw, 0);
    }

    /** An attribute map that is a list element (BatchGetItem's Keys); an empty map for JSON null. */
    static Map<String, AttributeValue> listedMap(Object element) {
        if (element instanceof DecodedAttributes decoded) {
            return decoded.get();
        }
        Map<String, Object> raw = Fields.asObject(element);
        return raw == null ? Map.of() : decodeMap(raw, 0);
    }

    public static Map<String, AttributeValue> decodeMap(Map<String, Object> raw, int depth) {
        Map<String, AttributeValue> out = new LinkedHashMap<>(Math.max(4, raw.size() * 4 / 3 + 1));
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            out.put(e.getKey(), decode(e.getValue(), depth));
        }
        return Collections.unmodifiableMap(out);
    }

    /** depth is the number of containers above this value: 0 for an item's top-level attribute. */
    public static AttributeValue decode(Object raw, int depth) {
        // DynamoDB counts the value itself as a level: 31 containers around a scalar (32 levels) are
        // accepted, 32 are rejected (captured against AWS, docs/notes/error-messages.md §5).
        if (depth >= NESTING_DEPTH_MAX) {
            throw tooDeep();
        }
        Map<String, Object> v = Fields.asObject(raw);
        if (v == null) {
            throw empty();
        }
        AttributeType type = null;
        @Nullable Object payload = null;
        for (Map.Entry<String, Object> e : v.entrySet()) {
            AttributeType t = AttributeType.fromWire(e.getKey());
            if (t == null || e.getValue() == null || e.getValue() == dev.kumiko.server.json.JsonNull.INSTANCE) {
                continue;
            }
            if (type != null) {
                throw moreThanOneType();
            }
            type = t;
            payload = e.getValue();
        }
        if (type == null || payload == null) {
            throw empty();
        }
        return decodeTyped(type, payload, depth);
    }

    static DynamoException moreThanOneType() {
        return DynamoException.validation("Supplied AttributeValue has more than one datatypes set, "
                + "must contain exactly one of the supported datatypes");
    }

    static DynamoException empty() {
        return DynamoException.validation(
                "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
    }

    static AttributeValue decodeTyped(AttributeType type, Object payload, int depth) {
        switch (type) {
            case S:
                return new AttributeValue.S(Fields.stringValue(payload));
            case N:
                return new AttributeValue.N(DynamoNumber.parse(Fields.stringValue(payload)));
            case B:
                return new AttributeValue.B(base64(payload));
            case SS:
                return stringSet(payload);
            case NS:
                return numberSet(payload);
            case BS:
                return binarySet(payload);
            case M:
                return new AttributeValue.M(decodeMap(Fields.objectValue(payload), depth + 1));
            case L:
                return list(payload, depth);
            case NULL:
                return nullValue(payload);
            case BOOL:
                return AttributeValue.bool(boolValue(payload));
            default:
                throw new AssertionError(type);
        }
    }

    static DynamoException tooDeep() {
        return DynamoException.validation("Nesting Levels have exceeded supported limits: "
                + "Attributes in the item have nested levels beyond supported limit");
    }

    private static AttributeValue list(Object payload, int depth) {
        List<Object> raw = Fields.listValue(payload);
        List<AttributeValue> out = new ArrayList<>(raw.size());
        for (Object o : raw) {
            out.add(decode(o, depth + 1));
        }
        return new AttributeValue.L(Collections.unmodifiableList(out));
    }

    private static boolean boolValue(Object payload) {
        return lenientBoolean(payload);
    }

    /**
     * DynamoDB's front end reads a string where a boolean belongs as Java's Boolean.parseBoolean
     * does, so {"NULL": "no"} is a false NULL and gets the ValidationException, not a
     * SerializationException (UNVERIFIED, docs/notes/error-messages.md).
     */
    private static boolean lenientBoolean(Object payload) {
        if (payload instanceof Boolean b) {
            return b;
        }
        if (payload instanceof String s) {
            return Boolean.parseBoolean(s);
        }
        throw Fields.wrongType(payload, "Boolean");
    }

    private static AttributeValue nullValue(Object payload) {
        boolean b = lenientBoolean(payload);
        if (!b) {
            throw DynamoException.invalidParameter("Null attribute value types must have the value of true");
        }
        return AttributeValue.NULL;
    }

    private static byte[] base64(Object payload) {
        String s = Fields.stringValue(payload);
        if (s.length() % 4 != 0) {
            // Java's decoder accepts unpadded input; DynamoDB's does not. UNVERIFIED wording.
            throw DynamoException.serialization(
                    "Base64 encoded length is expected a multiple of 4 bytes but found: " + s.length());
        }
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            // UNVERIFIED wording: DynamoDB rejects undecodable binary during deserialization.
            throw DynamoException.serialization("Base64 encoded value could not be decoded");
        }
    }

    private static AttributeValue stringSet(Object payload) {
        List<Object> raw = Fields.listValue(payload);
        if (raw.isEmpty()) {
            // Two spaces before "may" and "An string" are DynamoDB's own text.
            throw DynamoException.invalidParameter("An string set  may not be empty");
        }
        List<String> out = new ArrayList<>(raw.size());
        Set<String> seen = new HashSet<>();
        for (Object o : raw) {
            String s = setMember(o, "string");
            out.add(s);
            seen.add(s);
        }
        if (seen.size() != out.size()) {
            throw duplicates(out);
        }
        return new AttributeValue.SS(Collections.unmodifiableList(out));
    }

    private static AttributeValue numberSet(Object payload) {
        List<Object> raw = Fields.listValue(payload);
        if (raw.isEmpty()) {
            throw DynamoException.invalidParameter("An number set  may not be empty");
        }
        List<DynamoNumber> out = new ArrayList<>(raw.size());
        Set<DynamoNumber> seen = new HashSet<>();
        for (Object o : raw) {
            DynamoNumber n = DynamoNumber.parse(setMember(o, "number"));
            out.add(n);
            seen.add(n);
        }
        if (seen.size() != out.size()) {
            throw numberOrBinaryDuplicates();
        }
        return new AttributeValue.NS(Collections.unmodifiableList(out));
    }

    private static AttributeValue binarySet(Object payload) {
        List<Object> raw = Fields.listValue(payload);
        if (raw.isEmpty()) {
            throw DynamoException.invalidParameter("An binary set  may not be empty");
        }
        List<byte[]> out = new ArrayList<>(raw.size());
        Set<String> seen = new HashSet<>();
        for (Object o : raw) {
            byte[] b = base64(setMember(o, "binary"));
            out.add(b);
            seen.add(Base64.getEncoder().encodeToString(b));
        }
        if (seen.size() != out.size()) {
            throw numberOrBinaryDuplicates();
        }
        return new AttributeValue.BS(Collections.unmodifiableList(out));
    }

    /** A set member: a string, never JSON null (found by the fuzzer: it reached the engine as null). */
    private static String setMember(Object o, String setType) {
        String s = Fields.asString(o);
        if (s == null) {
            // UNVERIFIED wording, shaped like DynamoDB's "An string set  may not be empty" (two spaces).
            throw DynamoException.invalidParameter("An " + setType + " set  may not contain null members");
        }
        return s;
    }

    /**
     * NS and BS duplicates: a full response body captured from AWS carries this bare text (no prefix,
     * no list, no period), unlike the SS form below (docs/notes/error-messages.md §5).
     */
    private static DynamoException numberOrBinaryDuplicates() {
        return DynamoException.validation("Input collection contains duplicates");
    }

    private static DynamoException duplicates(List<String> values) {
        return DynamoException.invalidParameter("Input collection " + values + " contains duplicates.");
    }
}
