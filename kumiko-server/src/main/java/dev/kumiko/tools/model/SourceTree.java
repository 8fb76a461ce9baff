package dev.kumiko.tools.model;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model file parsed into the plain tree {@link JsonTree} makes (maps, lists, strings, {@link JsonNumber},
 * booleans, {@link JsonNull}), plus where in the file each object, array and field name starts, so that an
 * error can say "chat.json:140:7" as a compiler does and an editor or CI annotation can jump there.
 */
final class SourceTree {
    /** A place in the file, 1-based as editors count. */
    record Position(int line, int column) {
        @Override
        public String toString() {
            return line + ":" + column;
        }
    }

    private final Map<String, Object> root;
    private final IdentityHashMap<Object, Position> starts = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Map<String, Position>> fields = new IdentityHashMap<>();

    private SourceTree(byte[] bytes, String file) {
        try (JsonParser p = JsonTree.factory().createParser(bytes)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw ModelError.located(file + ":1:1: a model file is one JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> r = (Map<String, Object>) value(p, first);
            root = r;
            if (p.nextToken() != null) {
                throw ModelError.located(file + ":" + position(p.currentTokenLocation())
                        + ": unexpected content after the model's closing brace");
            }
        } catch (StreamConstraintsException e) {
            throw ModelError.located(file + ":" + position(e.getLocation()) + ": " + firstLine(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            throw ModelError.located(
                    file + ":" + position(e.getLocation()) + ": not valid JSON: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ModelError("cannot read model file " + file + ": " + e.getMessage());
        }
    }

    static SourceTree parse(byte[] bytes, String file) {
        return new SourceTree(bytes, file);
    }

    Map<String, Object> root() {
        return root;
    }

    /** Where an object or array of this tree starts; null for a value not from this tree. */
    Position start(Object container) {
        return starts.get(container);
    }

    /** Where a field's name is written in an object of this tree, else where the object starts. */
    Position field(Object object, String name) {
        Map<String, Position> names = fields.get(object);
        Position p = names == null ? null : names.get(name);
        return p != null ? p : start(object);
    }

    private Object value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> map = new LinkedHashMap<>();
                Map<String, Position> names = new LinkedHashMap<>();
                starts.put(map, position(p.currentTokenLocation()));
                fields.put(map, names);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    names.put(name, position(p.currentTokenLocation()));
                    map.put(name, value(p, p.nextToken()));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                starts.put(list, position(p.currentTokenLocation()));
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    list.add(value(p, e));
                }
                return list;
            }
            default:
                return JsonTree.readValue(p, t);
        }
    }

    private static Position position(JsonLocation l) {
        return l == null ? new Position(1, 1) : new Position(Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
    }

    private static String firstLine(String message) {
        String m = message == null ? "" : message.strip();
        int newline = m.indexOf('\n');
        return newline < 0 ? m : m.substring(0, newline);
    }
}
