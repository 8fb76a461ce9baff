package dev.kumiko.server.protocol;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.MemberConstraintException;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Typed access to request members, with the SerializationException DynamoDB's front end gives
 * when a member has the wrong JSON type. Absent members and JSON null both read as null; unknown
 * members are ignored, as DynamoDB ignores them.
 */
public final class Fields {
    private Fields() {}

    public static @Nullable String string(Map<String, Object> obj, String name) {
        return asString(obj.get(name));
    }

    public static @Nullable String asString(@Nullable Object v) {
        if (v == null || v == JsonNull.INSTANCE) {
            return null;
        }
        return stringValue(v);
    }

    /** A value present and not JSON null (an attribute value's payload), which must be a string. */
    public static String stringValue(Object v) {
        if (v instanceof String s) {
            return s;
        }
        throw wrongType(v, "String");
    }

    public static @Nullable Long longValue(Map<String, Object> obj, String name) {
        Object v = obj.get(name);
        if (v == null || v == JsonNull.INSTANCE) {
            return null;
        }
        if (v instanceof JsonNumber n) {
            try {
                return new java.math.BigDecimal(n.text()).longValueExact();
            } catch (ArithmeticException | NumberFormatException e) {
                throw DynamoException.serialization("NUMBER_VALUE cannot be converted to Long");
            }
        }
        throw wrongType(v, "Long");
    }

    public static @Nullable Boolean bool(Map<String, Object> obj, String name) {
        Object v = obj.get(name);
        if (v == null || v == JsonNull.INSTANCE) {
            return null;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw wrongType(v, "Boolean");
    }

    @SuppressWarnings("unchecked")
    public static @Nullable Map<String, Object> object(Map<String, Object> obj, String name) {
        return asObject(obj.get(name));
    }

    public static @Nullable Map<String, Object> asObject(@Nullable Object v) {
        if (v == null || v == JsonNull.INSTANCE) {
            return null;
        }
        return objectValue(v);
    }

    /** A value present and not JSON null, which must be an object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> objectValue(Object v) {
        if (v instanceof Map) {
            return (Map<String, Object>) v;
        }
        if (v instanceof List) {
            throw DynamoException.serialization("Start of list found where not expected");
        }
        throw DynamoException.serialization("Unexpected field type");
    }

    @SuppressWarnings("unchecked")
    public static @Nullable List<Object> list(Map<String, Object> obj, String name) {
        return asList(obj.get(name));
    }

    public static @Nullable List<Object> asList(@Nullable Object v) {
        if (v == null || v == JsonNull.INSTANCE) {
            return null;
        }
        return listValue(v);
    }

    /** A value present and not JSON null, which must be a list. */
    @SuppressWarnings("unchecked")
    public static List<Object> listValue(Object v) {
        if (v instanceof List) {
            return (List<Object>) v;
        }
        if (v instanceof Map) {
            throw DynamoException.serialization("Start of structure or map found where not expected");
        }
        throw DynamoException.serialization("Unexpected field type");
    }

    /** A list of structures, each converted by fn; null when absent. */
    public static <T> @Nullable List<T> objects(
            Map<String, Object> obj, String name, Function<Map<String, Object>, T> fn) {
        List<Object> raw = list(obj, name);
        if (raw == null) {
            return null;
        }
        List<T> out = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            out.add(fn.apply(objectValue(member(raw, i, name))));
        }
        return out;
    }

    public static @Nullable List<String> strings(Map<String, Object> obj, String name) {
        List<Object> raw = list(obj, name);
        if (raw == null) {
            return null;
        }
        List<String> out = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            out.add(asString(member(raw, i, name)));
        }
        return out;
    }

    /**
     * Element i of a request list, never JSON null: the fuzzer found nulls reaching the engine as
     * NullPointerExceptions. DynamoDB's constraint form with a 1-based index; UNVERIFIED for nested
     * lists, where DynamoDB's path would also name the enclosing members.
     */
    private static Object member(List<Object> raw, int i, String listName) {
        Object o = raw.get(i);
        if (o == null || o == JsonNull.INSTANCE) {
            throw new MemberConstraintException("1 validation error detected: Value null at '"
                    + Character.toLowerCase(listName.charAt(0)) + listName.substring(1) + "." + (i + 1)
                    + ".member' failed to satisfy constraint: Member must not be null");
        }
        return o;
    }

    /** A map of string to string (e.g. ExpressionAttributeNames). */
    public static @Nullable Map<String, String> stringMap(Map<String, Object> obj, String name) {
        if (obj.get(name) instanceof List) {
            // UNVERIFIED: by analogy with the observed text for a list where an attribute map belongs.
            throw DynamoException.serialization(
                    "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>");
        }
        Map<String, Object> raw = object(obj, name);
        if (raw == null) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>(raw.size() * 2);
        raw.forEach((k, v) -> out.put(k, asString(v)));
        return out;
    }

    static DynamoException wrongType(Object v, String expected) {
        if (v instanceof Map) {
            return DynamoException.serialization("Start of structure or map found where not expected");
        }
        if (v instanceof List) {
            return DynamoException.serialization("Start of list found where not expected");
        }
        String token = v instanceof JsonNumber
                ? "NUMBER_VALUE"
                : v instanceof Boolean b ? (b ? "TRUE_VALUE" : "FALSE_VALUE") : "STRING_VALUE";
        return DynamoException.serialization(token + " cannot be converted to " + expected);
    }
}
