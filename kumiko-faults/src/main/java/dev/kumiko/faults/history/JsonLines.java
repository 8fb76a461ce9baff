package dev.kumiko.faults.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A history as JSON lines, one event per line:
 * {@code {"index":7,"time_nanos":123,"process":2,"type":"ok","f":"read","key":"r1","value":3}}.
 */
public final class JsonLines {
    private static final JsonFactory FACTORY = new JsonFactory();
    /** Bounds what one history file may hold in memory: ~10 million events is far beyond any run. */
    private static final int EVENTS_MAX = 10_000_000;

    private JsonLines() {}

    public static String line(Event e) {
        StringWriter out = new StringWriter(96);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("index", e.index());
            g.writeNumberField("time_nanos", e.timeNanos());
            g.writeNumberField("process", e.process());
            g.writeStringField("type", e.type().wireName());
            g.writeStringField("f", e.f());
            g.writeStringField("key", e.key());
            g.writeFieldName("value");
            JsonValues.write(g, e.value());
            g.writeEndObject();
        } catch (IOException x) {
            throw new IllegalStateException("writing to a string failed", x);
        }
        return out.toString();
    }

    public static Event parse(String line) throws IOException {
        try (JsonParser p = FACTORY.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("an event is a JSON object: " + line);
            }
            Object value = JsonValues.read(p, 0);
            if (!(value instanceof java.util.Map<?, ?> map)) {
                throw new IOException("an event is a JSON object: " + line);
            }
            return event(map, line);
        }
    }

    public static List<Event> read(Path file) throws IOException {
        List<Event> events = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                if (events.size() == EVENTS_MAX) {
                    throw new IOException(file + " holds more than " + EVENTS_MAX + " events");
                }
                try {
                    events.add(parse(line));
                } catch (IOException | RuntimeException x) {
                    throw new IOException(file + " line " + number + ": " + x.getMessage(), x);
                }
            }
        }
        return events;
    }

    private static Event event(java.util.Map<?, ?> m, String line) throws IOException {
        return new Event(
                number(m, "index", line),
                number(m, "time_nanos", line),
                Math.toIntExact(number(m, "process", line)),
                EventType.ofWireName(text(m, "type", line)),
                text(m, "f", line),
                text(m, "key", line),
                m.get("value"));
    }

    private static long number(java.util.Map<?, ?> m, String name, String line) throws IOException {
        if (!(m.get(name) instanceof Long n)) {
            throw new IOException("no number " + name + " in " + line);
        }
        return n;
    }

    private static String text(java.util.Map<?, ?> m, String name, String line) throws IOException {
        @Nullable Object v = m.get(name);
        if (!(v instanceof String s)) {
            throw new IOException("no string " + name + " in " + line);
        }
        return s;
    }
}
