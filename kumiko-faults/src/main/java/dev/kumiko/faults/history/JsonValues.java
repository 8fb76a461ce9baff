package dev.kumiko.faults.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON values a history holds (null, Boolean, Long, String, List, Map), read and written with
 * Jackson's streaming API: histories need no data binding, and the server already uses jackson-core.
 */
final class JsonValues {
    /** Nesting deeper than this is no history this module wrote. */
    private static final int DEPTH_MAX = 16;

    private JsonValues() {}

    /** Reads the value whose first token the parser is on. */
    static @Nullable Object read(JsonParser p, int depth) throws IOException {
        if (depth > DEPTH_MAX) {
            throw new IOException("JSON nested deeper than " + DEPTH_MAX);
        }
        JsonToken t = p.currentToken();
        if (t == null) {
            throw new IOException("end of input inside a value");
        }
        return switch (t) {
            case VALUE_NULL -> null;
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            case VALUE_NUMBER_INT -> p.getLongValue();
            case VALUE_STRING -> p.getText();
            case START_ARRAY -> readList(p, depth);
            case START_OBJECT -> readMap(p, depth);
            default -> throw new IOException("unexpected JSON token " + t + " (floats are not used in histories)");
        };
    }

    private static List<@Nullable Object> readList(JsonParser p, int depth) throws IOException {
        List<@Nullable Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            list.add(read(p, depth + 1));
        }
        return list;
    }

    private static Map<String, @Nullable Object> readMap(JsonParser p, int depth) throws IOException {
        Map<String, @Nullable Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            map.put(name, read(p, depth + 1));
        }
        return map;
    }

    static void write(JsonGenerator g, @Nullable Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Long || value instanceof Integer) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeFieldName((String) e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else {
            throw new IllegalArgumentException(
                    "not a history value: " + value.getClass().getName());
        }
    }
}
