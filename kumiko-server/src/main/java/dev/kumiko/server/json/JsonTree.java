package dev.kumiko.server.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.ServerLimits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a request body into plain Java values: {@code Map<String,Object>} (insertion-ordered),
 * {@code List<Object>}, String, {@link JsonNumber}, Boolean and {@link JsonNull}. Depth and sizes
 * are bounded so that hostile input costs bounded memory and stack.
 */
public final class JsonTree {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(ServerLimits.JSON_DEPTH_MAX)
                    .maxNumberLength(ServerLimits.JSON_NUMBER_CHARS_MAX)
                    .maxStringLength(ServerLimits.JSON_STRING_CHARS_MAX)
                    .maxNameLength(ServerLimits.JSON_NAME_CHARS_MAX)
                    .build())
            .build();

    private JsonTree() {}

    public static JsonFactory factory() {
        return FACTORY;
    }

    /**
     * Reads the value a request member holds, the parser on its first token; leaves the parser on
     * the value's last token. A reader may return something other than a plain tree (a value
     * decoded straight from the parser) for members whose type it knows.
     */
    @FunctionalInterface
    public interface MemberReader {
        Object read(JsonParser p, String name, JsonToken first) throws IOException;
    }

    /** The request object; anything else, or malformed JSON, is a SerializationException. */
    public static Map<String, Object> parseObject(byte[] body, int offset, int length) {
        return parseObject(body, offset, length, (p, name, first) -> readValue(p, first));
    }

    /** The request object, each top-level member read by {@code members}. */
    public static Map<String, Object> parseObject(byte[] body, int offset, int length, MemberReader members) {
        try (JsonParser p = FACTORY.createParser(body, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                // An empty body is read as an empty request, as DynamoDB's front end does.
                return Map.of();
            }
            if (first != JsonToken.START_OBJECT) {
                throw unexpected(first);
            }
            Map<String, Object> root = readMembers(p, members);
            if (p.nextToken() != null) {
                throw DynamoException.serialization("Unexpected content after the end of the request body");
            }
            return root;
        } catch (StreamConstraintsException e) {
            throw DynamoException.serialization("Request body exceeds the supported nesting depth or size");
        } catch (IOException e) {
            throw DynamoException.serialization("Malformed request body: it is not valid JSON");
        }
    }

    private static DynamoException unexpected(JsonToken t) {
        if (t == JsonToken.START_ARRAY) {
            return DynamoException.serialization("Start of list found where not expected");
        }
        return DynamoException.serialization("Unexpected token found where a request object was expected");
    }

    private static Map<String, Object> readMembers(JsonParser p, MemberReader members) throws IOException {
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            map.put(name, members.read(p, name, p.nextToken()));
        }
        return map;
    }

    /** The plain tree of the value whose first token is {@code t}; leaves the parser on its last token. */
    public static Object readValue(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> map = new LinkedHashMap<>();
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    map.put(name, readValue(p, p.nextToken()));
                }
                assert k == JsonToken.END_OBJECT;
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    list.add(readValue(p, e));
                }
                return list;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return new JsonNumber(p.getText());
            case VALUE_TRUE:
                return true;
            case VALUE_FALSE:
                return false;
            case VALUE_NULL:
                return JsonNull.INSTANCE;
            default:
                throw DynamoException.serialization("Unexpected JSON token " + t);
        }
    }
}
