package dev.kumiko.server.fuzz;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** Writes a tree of the shape JsonTree reads (maps, lists, strings, JsonNumber, ...) back to JSON. */
final class JsonText {
    private JsonText() {}

    static byte[] write(Object tree) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            value(g, tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
                g.writeFieldName(e.getKey());
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                value(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof JsonNumber n) {
            g.writeNumber(n.text());
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v == null || v == JsonNull.INSTANCE) {
            g.writeNull();
        } else {
            throw new IllegalArgumentException("not a JSON tree value: " + v.getClass());
        }
    }
}
