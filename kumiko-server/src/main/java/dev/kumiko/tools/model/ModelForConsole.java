package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.Design;
import dev.kumiko.tools.model.Model.Entity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A model file as the console reads it ({@code serve --console-model}, docs/console.md): each entity with
 * its table and, for the table's key attributes, its key templates and a regular expression for each.
 * The console names an item by the first entity whose expressions match its keys; entities are listed
 * most specific first (the most literal text in their templates), so {@code USER#{userId}} /
 * {@code CHATROOM#{chatRoomId}} wins over a catch-all such as {@code {id}}.
 *
 * <p>The main design's entities are listed, and those of each alternative on a table of its own name; an
 * alternative on the main design's table is another way to lay out the same data, not data that exists.
 */
public final class ModelForConsole {
    private ModelForConsole() {}

    /** The JSON the console fetches from /console/api/model. */
    public static byte[] json(Model model) {
        List<Map<String, Object>> entities = new ArrayList<>();
        Set<String> tables = new HashSet<>();
        for (Design d : designs(model)) {
            if (tables.add(d.table().name())) {
                entities.addAll(entities(d));
            }
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("model", model.name());
        root.put("entities", entities);
        return Json.write(root, false);
    }

    private static List<Design> designs(Model model) {
        List<Design> all = new ArrayList<>();
        all.add(model.main());
        all.addAll(model.alternatives());
        return all;
    }

    private static List<Map<String, Object>> entities(Design d) {
        List<String> keyNames = new ArrayList<>();
        keyNames.add(d.table().partitionKey().name());
        if (d.table().sortKey() != null) {
            keyNames.add(d.table().sortKey().name());
        }
        List<Entity> ordered = new ArrayList<>(d.entities());
        // Stable: entities as specific as each other keep the file's order.
        ordered.sort(Comparator.comparingInt((Entity e) -> -literalChars(e, keyNames)));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Entity e : ordered) {
            Map<String, Object> keys = new LinkedHashMap<>();
            Map<String, Object> match = new LinkedHashMap<>();
            for (String k : keyNames) {
                keys.put(k, e.keys().get(k).text());
                match.put(k, e.keys().get(k).regex());
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", e.name());
            m.put("table", d.table().name());
            m.put("keys", keys);
            m.put("match", match);
            out.add(m);
        }
        return out;
    }

    private static int literalChars(Entity e, List<String> keyNames) {
        int n = 0;
        for (String k : keyNames) {
            n += e.keys().get(k).literalChars();
        }
        return n;
    }
}
