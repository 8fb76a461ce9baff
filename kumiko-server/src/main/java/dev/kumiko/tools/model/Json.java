package dev.kumiko.tools.model;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** JSON trees of plain Java values (as {@link JsonTree} reads them) to and from bytes. */
final class Json {
    private Json() {}

    static Map<String, Object> parse(byte[] bytes, String what) {
        try {
            return JsonTree.parseObject(bytes, 0, bytes.length);
        } catch (DynamoException e) {
            throw new ModelError(what + " is not a JSON object: " + e.getMessage());
        }
    }

    static byte[] write(Object tree, boolean pretty) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            if (pretty) {
                g.useDefaultPrettyPrinter();
            }
            write(g, tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null || v == JsonNull.INSTANCE) {
            g.writeNull();
        } else if (v instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof JsonNumber n) {
            g.writeNumber(n.text());
        } else if (v instanceof Double d) {
            g.writeNumber(BigDecimal.valueOf(d).stripTrailingZeros().toPlainString());
        } else if (v instanceof Number n) {
            g.writeNumber(n.toString());
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass());
        }
    }

    /** A JSON number (as parsed, or a Java number) as a double; null when absent. */
    static Double number(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof JsonNumber n) {
            return Double.parseDouble(n.text());
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        return null;
    }
}
