package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes wire AttributeValues straight from the parser, without the generic tree's map per
 * value ({"S": "x"} is one AttributeValue.S, not a LinkedHashMap and an entry besides). The result
 * and every error are those of {@link AttributeValues} on the tree of the same JSON:
 * <ul>
 * <li>errors are returned, never thrown, so that parsing goes on to the end of the body (malformed
 * JSON after a refused value is still the SerializationException, as the tree parse found it
 * first); the first refused value in member order is the one reported;</li>
 * <li>a repeated JSON member replaces the earlier one in its first position, as the tree's
 * LinkedHashMap did;</li>
 * <li>a payload of an unusual JSON type ({"S": 1}, {"SS": [...]}) is read as a tree and decoded by
 * {@link AttributeValues} itself, which owns those texts.</li>
 * </ul>
 * Each method starts on the value's first token and leaves the parser on its last token.
 */
final class AttributeStream {
    private AttributeStream() {}

    /** The attribute map whose START_OBJECT is the current token. */
    @SuppressWarnings("unchecked")
    static DecodedAttributes readMap(JsonParser p) throws IOException {
        Object m = map(p, 0);
        return m instanceof DynamoException e
                ? new DecodedAttributes(null, e)
                : new DecodedAttributes((Map<String, AttributeValue>) m, null);
    }

    /** An unmodifiable Map of name to AttributeValue, or the DynamoException of its first refused value. */
    private static Object map(JsonParser p, int depth) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        boolean refused = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            Object v = value(p, p.nextToken(), depth);
            refused |= v instanceof DynamoException;
            out.put(name, v);
        }
        if (refused) {
            for (Object v : out.values()) {
                if (v instanceof DynamoException e) {
                    return e;
                }
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** One AttributeValue ({"S": "x"}); depth as in {@link AttributeValues#decode}. */
    private static Object value(JsonParser p, JsonToken first, int depth) throws IOException {
        if (depth >= AttributeValues.NESTING_DEPTH_MAX) {
            p.skipChildren();
            return AttributeValues.tooDeep();
        }
        if (first != JsonToken.START_OBJECT) {
            return fromTree(p, first, depth);
        }
        // One typed member is the rule; a second one (even if a later repeat nulls it) goes to an
        // ordered map, so that the outcome is the tree's.
        AttributeType type = null;
        Object payload = null;
        Map<AttributeType, Object> typed = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            AttributeType t = AttributeType.fromWire(p.currentName());
            JsonToken v = p.nextToken();
            if (t == null) {
                p.skipChildren();
                continue;
            }
            Object decoded = v == JsonToken.VALUE_NULL ? null : payload(p, t, v, depth);
            if (typed == null && (type == null || type == t)) {
                type = t;
                payload = decoded;
                continue;
            }
            if (typed == null) {
                typed = new LinkedHashMap<>(4);
                typed.put(type, payload);
            }
            typed.put(t, decoded);
        }
        return typed == null ? (payload == null ? AttributeValues.empty() : payload) : single(typed);
    }

    /** The one non-null payload, as the tree's decoder picks it. */
    private static Object single(Map<AttributeType, Object> typed) {
        Object one = null;
        for (Object v : typed.values()) {
            if (v != null) {
                if (one != null) {
                    return AttributeValues.moreThanOneType();
                }
                one = v;
            }
        }
        return one == null ? AttributeValues.empty() : one;
    }

    /** The payload of a typed member, whose first token is {@code first} (never JSON null). */
    @SuppressWarnings("unchecked")
    private static Object payload(JsonParser p, AttributeType type, JsonToken first, int depth) throws IOException {
        switch (type) {
            case S:
                if (first == JsonToken.VALUE_STRING) {
                    return new AttributeValue.S(p.getText());
                }
                break;
            case N:
                if (first == JsonToken.VALUE_STRING) {
                    return number(p.getText());
                }
                break;
            case BOOL:
                if (first == JsonToken.VALUE_TRUE || first == JsonToken.VALUE_FALSE) {
                    return AttributeValue.bool(first == JsonToken.VALUE_TRUE);
                }
                break;
            case NULL:
                if (first == JsonToken.VALUE_TRUE) {
                    return AttributeValue.NULL;
                }
                break;
            case M:
                if (first == JsonToken.START_OBJECT) {
                    Object m = map(p, depth + 1);
                    return m instanceof DynamoException ? m : new AttributeValue.M((Map<String, AttributeValue>) m);
                }
                break;
            case L:
                if (first == JsonToken.START_ARRAY) {
                    return list(p, depth);
                }
                break;
            default:
                break;
        }
        try {
            return AttributeValues.decodeTyped(type, JsonTree.readValue(p, first), depth);
        } catch (DynamoException e) {
            return e;
        }
    }

    private static Object number(String text) {
        try {
            return new AttributeValue.N(DynamoNumber.parse(text));
        } catch (DynamoException e) {
            return e;
        }
    }

    private static Object list(JsonParser p, int depth) throws IOException {
        List<AttributeValue> out = new ArrayList<>();
        DynamoException refused = null;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            Object v = value(p, t, depth + 1);
            if (v instanceof DynamoException e) {
                refused = refused == null ? e : refused;
            } else if (refused == null) {
                out.add((AttributeValue) v);
            }
        }
        return refused != null ? refused : new AttributeValue.L(Collections.unmodifiableList(out));
    }

    /** A value that is not a JSON object, or a payload of an unusual type: decoded from its tree. */
    private static Object fromTree(JsonParser p, JsonToken first, int depth) throws IOException {
        try {
            return AttributeValues.decode(JsonTree.readValue(p, first), depth);
        } catch (DynamoException e) {
            return e;
        }
    }
}
