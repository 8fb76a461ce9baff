package dev.kumiko.tools.model;

import dev.kumiko.engine.base.Nearest;
import dev.kumiko.tools.model.Model.Attribute;
import dev.kumiko.tools.model.Model.Entity;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Template parameters that nothing defines. A pattern's {@code {orderID}} where its entity has
 * {@code orderId} would fail only when run; an entity key's {@code ORDER#{orderID}} would not fail at all,
 * but generate ids that match no other item, and a later pattern's condition or read would miss for a
 * reason far from the typo. Both are caught while the file is read, each naming the nearest defined name.
 */
final class TemplateCheck {
    private TemplateCheck() {}

    /**
     * The first parameter of an entity's keys that neither the entity declares nor another entity uses,
     * and that is near a name that is declared; null when there is none. An undeclared parameter with no
     * near name stays allowed: it gets generated ids, as docs/modeling.md says.
     */
    static String entityKeys(Entity e, List<Entity> all) {
        Set<String> elsewhere = new LinkedHashSet<>();
        for (Entity other : all) {
            if (!other.name().equals(e.name())) { // names are unique in a design
                elsewhere.addAll(other.attributes().keySet());
                elsewhere.addAll(keyParameters(other));
            }
        }
        Set<String> declared = new LinkedHashSet<>(e.attributes().keySet());
        declared.addAll(elsewhere);
        for (Map.Entry<String, KeyTemplate> k : e.keys().entrySet()) {
            for (String p : k.getValue().parameters()) {
                if (declared.contains(p)) {
                    continue;
                }
                String near = Nearest.of(p, declared);
                if (near != null) {
                    return "entity " + e.name() + ": key " + k.getKey() + " uses {" + p + "}, which no attribute "
                            + "or other entity defines (did you mean {" + near + "}?); an undeclared parameter "
                            + "gets ids that match no other item";
                }
            }
        }
        return null;
    }

    /** The first template parameter of a request that its entity cannot fill; null when every one is filled. */
    static String request(Map<String, Object> fields, Entity entity) {
        Set<String> known = entity == null ? Set.of() : parameters(entity);
        for (String text : templates(fields)) {
            for (String p : KeyTemplate.parse(text).parameters()) {
                if (!known.contains(p)) {
                    return entity == null
                            ? "{" + p + "} in \"" + text + "\" needs an entity whose sample item fills it"
                            : "{" + p + "} in \"" + text + "\" is not a parameter of entity " + entity.name()
                                    + Nearest.hint(p, known);
                }
            }
        }
        return null;
    }

    /** What a sample item of the entity binds: its attributes (but the filler) and its key parameters. */
    static Set<String> parameters(Entity e) {
        Set<String> names = new LinkedHashSet<>();
        for (Attribute a : e.attributes().values()) {
            if (!a.type().equals("filler")) {
                names.add(a.name());
            }
        }
        names.addAll(keyParameters(e));
        return names;
    }

    private static Set<String> keyParameters(Entity e) {
        Set<String> names = new LinkedHashSet<>();
        for (KeyTemplate t : e.keys().values()) {
            names.addAll(t.parameters());
        }
        return names;
    }

    /** The template strings of a request as PatternRunner renders them: key, keys and values. */
    private static List<String> templates(Map<String, Object> fields) {
        List<String> out = new java.util.ArrayList<>();
        strings(fields.get("key"), out);
        if (fields.get("keys") instanceof List<?> keys) {
            for (Object k : keys) {
                strings(k, out);
            }
        }
        strings(fields.get("values"), out);
        return out;
    }

    private static void strings(Object map, List<String> out) {
        if (map instanceof Map<?, ?> m) {
            for (Object v : m.values()) {
                if (v instanceof String s) {
                    out.add(s);
                }
            }
        }
    }
}
