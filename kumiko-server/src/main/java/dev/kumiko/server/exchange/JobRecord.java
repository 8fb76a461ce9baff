package dev.kumiko.server.exchange;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One export's or import's state, as the store keeps it: the members of its ExportDescription or
 * ImportTableDescription by their DynamoDB names (times in epoch milliseconds), plus Kumiko's own
 * members, whose names start with '_' and never reach a response. Stored as JSON.
 */
public final class JobRecord {
    /** Members holding times: epoch milliseconds here, epoch seconds on the wire. */
    public static final Set<String> TIMES = Set.of("StartTime", "EndTime", "ExportTime");

    static final String IN_PROGRESS = "IN_PROGRESS";
    static final String COMPLETED = "COMPLETED";
    static final String FAILED = "FAILED";

    final Map<String, Object> members;

    JobRecord(Map<String, Object> members) {
        this.members = new LinkedHashMap<>(members);
    }

    static JobRecord decode(byte[] bytes) {
        return new JobRecord(JsonTree.parseObject(bytes, 0, bytes.length));
    }

    byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            tree(g, members);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public @Nullable String string(String name) {
        Object v = members.get(name);
        return v instanceof String s ? s : null;
    }

    /** A number member (a time in epoch milliseconds, a count); 0 when absent. */
    public long number(String name) {
        Object v = members.get(name);
        if (v instanceof JsonNumber n) {
            return Long.parseLong(n.text());
        }
        return v instanceof Number n ? n.longValue() : 0;
    }

    JobRecord with(String name, @Nullable Object value) {
        if (value == null) {
            members.remove(name);
        } else {
            members.put(
                    name, value instanceof Long || value instanceof Integer ? new JsonNumber(value.toString()) : value);
        }
        return this;
    }

    /**
     * The members a Describe or List answer shows (those not starting with '_'), in their order:
     * the protocol writes them, times as epoch seconds.
     */
    public Map<String, Object> publicMembers() {
        Map<String, Object> out = new LinkedHashMap<>();
        members.forEach((name, value) -> {
            if (!name.startsWith("_")) {
                out.put(name, value);
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /** Writes a parsed JSON tree (maps, lists, strings, numbers, booleans) back out. */
    @SuppressWarnings("unchecked")
    public static void tree(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
                g.writeFieldName(e.getKey());
                tree(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                tree(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof JsonNumber n) {
            g.writeNumber(n.text());
        } else if (v instanceof Number n) {
            g.writeNumber(n.toString());
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v == null || v == JsonNull.INSTANCE) {
            g.writeNull();
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass());
        }
    }
}
