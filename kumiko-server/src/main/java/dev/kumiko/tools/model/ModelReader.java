package dev.kumiko.tools.model;

import dev.kumiko.engine.base.Nearest;
import dev.kumiko.tools.model.Model.AccessPattern;
import dev.kumiko.tools.model.Model.Attribute;
import dev.kumiko.tools.model.Model.Design;
import dev.kumiko.tools.model.Model.Entity;
import dev.kumiko.tools.model.Model.Index;
import dev.kumiko.tools.model.Model.KeyAttribute;
import dev.kumiko.tools.model.Model.Request;
import dev.kumiko.tools.model.Model.TableSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a model file (JSON, described by examples/models/model.schema.json). Unknown fields are errors,
 * so that a misspelt budget is not silently ignored.
 */
public final class ModelReader {
    /** The partitions (item collections) generated per entity when the model does not say. */
    public static final int PARTITIONS_DEFAULT = 4;
    /** A model is a design document, not a data set: bounded so a typo cannot ask for millions of items. */
    static final int PARTITIONS_MAX = 1000;

    static final int PER_COLLECTION_MAX = 10_000;
    private static final double SECONDS_PER_HOUR = 3600;
    private static final double SECONDS_PER_DAY = 86_400;

    static final Set<String> OPERATIONS = Set.of(
            "GetItem",
            "Query",
            "Scan",
            "PutItem",
            "UpdateItem",
            "DeleteItem",
            "BatchGetItem",
            "BatchWriteItem",
            "TransactGetItems",
            "TransactWriteItems");
    static final Set<String> ATTRIBUTE_TYPES = Set.of(
            "string",
            "id",
            "ulid",
            "timestamp",
            "epochSeconds",
            "epochMillis",
            "number",
            "sequence",
            "boolean",
            "ttl",
            "stringList",
            "stringSet",
            "text",
            "filler");
    private static final Set<String> REQUEST_FIELDS = Set.of(
            "operation",
            "entity",
            "index",
            "key",
            "keyCondition",
            "filter",
            "values",
            "names",
            "limit",
            "scanIndexForward",
            "consistentRead",
            "projection",
            "update",
            "condition",
            "keys",
            "repeat",
            "actions",
            "description");
    private static final Set<String> PATTERN_FIELDS = union(
            REQUEST_FIELDS,
            Set.of(
                    "name",
                    "perSecond",
                    "perHour",
                    "perDay",
                    "steps",
                    "maxRcu",
                    "maxWcu",
                    "maxItemsRead",
                    "maxRequests",
                    "mayFindNothing"));

    /** A model file is a design document; past this it is not one (and would cost memory to parse). */
    public static final long FILE_BYTES_MAX = 4L * 1024 * 1024;

    /** The file as the user named it, and where its values are; both null for a tree built in code. */
    private final String file;

    private final SourceTree source;

    private ModelReader(String file, SourceTree source) {
        this.file = file;
        this.source = source;
    }

    public static Model read(Path file) {
        byte[] bytes;
        try {
            if (Files.size(file) > FILE_BYTES_MAX) {
                throw new ModelError("model file " + file + " is larger than " + FILE_BYTES_MAX + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ModelError(
                    "no model file at " + file.toAbsolutePath().normalize() + " (examples/models/ has examples)");
        } catch (IOException e) {
            throw new ModelError("cannot read model file " + file + ": " + e.getMessage());
        }
        SourceTree source = SourceTree.parse(bytes, file.toString());
        return new ModelReader(file.toString(), source).model(source.root());
    }

    public static Model parse(Map<String, Object> root) {
        return new ModelReader(null, null).model(root);
    }

    private Model model(Map<String, Object> root) {
        only(
                root,
                "model",
                Set.of(
                        "$schema",
                        "name",
                        "designName",
                        "description",
                        "sample",
                        "table",
                        "entities",
                        "accessPatterns",
                        "alternatives"));
        String name = string(root, "name", "model", true);
        int partitions = PARTITIONS_DEFAULT;
        Map<String, Object> sample = object(root.get("sample"), "sample", false);
        if (sample != null) {
            only(sample, "sample", Set.of("partitions"));
            partitions = intValue(sample, "partitions", "sample", 1, PARTITIONS_MAX, PARTITIONS_DEFAULT);
        }
        Map<String, Object> tm = object(root.get("table"), "table", true);
        TableSpec table = within(tm, () -> table(tm));
        String designName = string(root, "designName", "model", false);
        Design main = design(
                designName == null ? name : designName, string(root, "description", "model", false), table, root);
        List<Design> alternatives = new ArrayList<>();
        for (Object o : list(root.get("alternatives"), "alternatives", false)) {
            Map<String, Object> alt = object(o, "alternative", true);
            only(alt, "alternative", Set.of("name", "description", "table", "entities", "accessPatterns"));
            String altName = string(alt, "name", "alternative", true);
            Map<String, Object> altTable = object(alt.get("table"), "alternative " + altName + " table", false);
            TableSpec t = altTable == null ? table : within(altTable, () -> table(altTable));
            alternatives.add(
                    within(alt, () -> design(altName, string(alt, "description", "alternative", false), t, alt)));
        }
        return new Model(
                name, string(root, "description", "model", false), partitions, main, List.copyOf(alternatives));
    }

    private Design design(String name, String description, TableSpec table, Map<String, Object> m) {
        Map<String, Entity> entities = new LinkedHashMap<>();
        List<Map<String, Object>> written = new ArrayList<>();
        for (Object o : list(m.get("entities"), "entities", true)) {
            Map<String, Object> em = object(o, "entity", true);
            Entity e = within(em, () -> entity(em, table));
            if (entities.putIfAbsent(e.name(), e) != null) {
                throw new ModelError("design \"" + name + "\": two entities are named \"" + e.name() + "\"")
                        .at(startOf(em));
            }
            written.add(em);
        }
        List<Entity> all = List.copyOf(entities.values());
        for (int i = 0; i < all.size(); i++) {
            String typo = TemplateCheck.entityKeys(all.get(i), all);
            if (typo != null) {
                throw fieldError(written.get(i), "keys", typo);
            }
        }
        List<AccessPattern> patterns = new ArrayList<>();
        Set<String> patternNames = new HashSet<>();
        for (Object o : list(m.get("accessPatterns"), "accessPatterns", true)) {
            Map<String, Object> pm = object(o, "access pattern", true);
            AccessPattern p = within(pm, () -> pattern(pm, entities));
            if (!patternNames.add(p.name())) {
                throw new ModelError("design \"" + name + "\": two access patterns are named \"" + p.name() + "\"")
                        .at(startOf(pm));
            }
            patterns.add(p);
        }
        return new Design(name, description, table, all, List.copyOf(patterns));
    }

    private TableSpec table(Map<String, Object> m) {
        only(
                m,
                "table",
                Set.of(
                        "name",
                        "partitionKey",
                        "sortKey",
                        "timeToLiveAttribute",
                        "globalSecondaryIndexes",
                        "localSecondaryIndexes"));
        List<Index> gsis = new ArrayList<>();
        for (Object o : list(m.get("globalSecondaryIndexes"), "globalSecondaryIndexes", false)) {
            Map<String, Object> im = object(o, "global secondary index", true);
            gsis.add(within(im, () -> index(im)));
        }
        List<Index> lsis = new ArrayList<>();
        for (Object o : list(m.get("localSecondaryIndexes"), "localSecondaryIndexes", false)) {
            Map<String, Object> im = object(o, "local secondary index", true);
            lsis.add(within(im, () -> index(im)));
        }
        return new TableSpec(
                string(m, "name", "table", true),
                keyAttribute(m.get("partitionKey"), "table", true),
                keyAttribute(m.get("sortKey"), "table", false),
                string(m, "timeToLiveAttribute", "table", false),
                List.copyOf(gsis),
                List.copyOf(lsis));
    }

    private Index index(Map<String, Object> m) {
        only(m, "index", Set.of("name", "partitionKey", "sortKey", "projection", "nonKeyAttributes"));
        String name = string(m, "name", "index", true);
        String projection = string(m, "projection", "index " + name, false);
        if (projection == null) {
            projection = "ALL";
        }
        if (!Set.of("ALL", "KEYS_ONLY", "INCLUDE").contains(projection)) {
            throw new ModelError("index " + name + ": projection must be ALL, KEYS_ONLY or INCLUDE");
        }
        List<String> nonKey = new ArrayList<>();
        for (Object o : list(m.get("nonKeyAttributes"), "nonKeyAttributes", false)) {
            nonKey.add(String.valueOf(o));
        }
        return new Index(
                name,
                keyAttribute(m.get("partitionKey"), "index " + name, true),
                keyAttribute(m.get("sortKey"), "index " + name, false),
                projection,
                List.copyOf(nonKey));
    }

    private KeyAttribute keyAttribute(Object o, String where, boolean required) {
        Map<String, Object> m = object(o, where + " key", required);
        if (m == null) {
            return null;
        }
        only(m, where + " key", Set.of("name", "type"));
        String type = string(m, "type", where + " key", false);
        type = type == null ? "S" : type;
        if (!Set.of("S", "N", "B").contains(type)) {
            throw new ModelError(where + ": a key attribute's type is S, N or B");
        }
        return new KeyAttribute(string(m, "name", where + " key", true), type);
    }

    private Entity entity(Map<String, Object> m, TableSpec table) {
        only(
                m,
                "entity",
                Set.of(
                        "name",
                        "description",
                        "keys",
                        "attributes",
                        "perCollection",
                        "partitions",
                        "sizeBytes",
                        "expectedCount"));
        String name = string(m, "name", "entity", true);
        String where = "entity " + name;
        Map<String, KeyTemplate> keys = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e :
                object(m.get("keys"), where + " keys", true).entrySet()) {
            if (!(e.getValue() instanceof String s)) {
                throw new ModelError(where + ": key " + e.getKey() + " must be a template string");
            }
            keys.put(e.getKey(), KeyTemplate.parse(s));
        }
        if (!keys.containsKey(table.partitionKey().name())) {
            throw new ModelError(where + ": keys must give the table's partition key "
                    + table.partitionKey().name());
        }
        if (table.sortKey() != null && !keys.containsKey(table.sortKey().name())) {
            throw new ModelError(where + ": keys must give the table's sort key "
                    + table.sortKey().name());
        }
        Map<String, Attribute> attributes = new LinkedHashMap<>();
        Map<String, Object> attrs = object(m.get("attributes"), where + " attributes", false);
        if (attrs != null) {
            for (Map.Entry<String, Object> e : attrs.entrySet()) {
                attributes.put(e.getKey(), attribute(e.getKey(), e.getValue(), where));
            }
        }
        Long sizeBytes = longValue(m, "sizeBytes", where);
        boolean hasFiller = attributes.values().stream().anyMatch(a -> a.type().equals("filler"));
        if (hasFiller != (sizeBytes != null)) {
            throw new ModelError(where + ": sizeBytes and an attribute of type filler go together");
        }
        Integer perCollection =
                m.containsKey("perCollection") ? intValue(m, "perCollection", where, 1, PER_COLLECTION_MAX, 1) : null;
        Integer partitions =
                m.containsKey("partitions") ? intValue(m, "partitions", where, 1, PARTITIONS_MAX, 1) : null;
        return new Entity(
                name,
                string(m, "description", where, false),
                Map.copyOf(keys),
                attributes,
                perCollection,
                partitions,
                sizeBytes,
                longValue(m, "expectedCount", where));
    }

    private Attribute attribute(String name, Object o, String where) {
        Map<String, Object> m =
                o instanceof String s ? Map.of("type", s) : object(o, where + " attribute " + name, true);
        String type = string(m, "type", where + " attribute " + name, true);
        if (!ATTRIBUTE_TYPES.contains(type)) {
            throw new ModelError(where + " attribute " + name + ": unknown type \"" + type + "\" (one of "
                    + String.join(", ", new java.util.TreeSet<>(ATTRIBUTE_TYPES)) + ")");
        }
        only(
                m,
                where + " attribute " + name,
                Set.of(
                        "type",
                        "value",
                        "values",
                        "prefix",
                        "length",
                        "count",
                        "seconds",
                        "stepSeconds",
                        "start",
                        "every",
                        "cardinality",
                        "min",
                        "max",
                        "stored",
                        "description"));
        return new Attribute(name, type, m, !Boolean.FALSE.equals(m.get("stored")));
    }

    private AccessPattern pattern(Map<String, Object> m, Map<String, Entity> entities) {
        String where = m.get("name") instanceof String n ? "access pattern \"" + n + "\"" : "access pattern";
        only(m, where, PATTERN_FIELDS);
        String name = string(m, "name", where, true);
        List<Request> steps = new ArrayList<>();
        if ("ConditionCheck".equals(m.get("operation"))) {
            throw new ModelError(where + ": ConditionCheck is an action of TransactWriteItems, not a request");
        }
        if (m.containsKey("steps")) {
            if (m.containsKey("operation")) {
                throw new ModelError(where + ": give either operation or steps, not both");
            }
            for (Object o : list(m.get("steps"), where + " steps", true)) {
                Map<String, Object> written = object(o, where + " step", true);
                only(written, where + " step", REQUEST_FIELDS);
                Map<String, Object> step = inherit(written, (String) m.get("entity"));
                steps.add(within(written, () -> request(step, where, entities)));
            }
        } else {
            Map<String, Object> fields = new LinkedHashMap<>(m);
            fields.keySet().retainAll(REQUEST_FIELDS);
            steps.add(request(fields, where, entities));
        }
        return new AccessPattern(
                name,
                string(m, "description", where, false),
                perSecond(m, where),
                List.copyOf(steps),
                Json.number(m.get("maxRcu")),
                Json.number(m.get("maxWcu")),
                longValue(m, "maxItemsRead", where),
                m.containsKey("maxRequests") ? intValue(m, "maxRequests", where, 1, Integer.MAX_VALUE, 1) : null,
                bool(m, "mayFindNothing", where));
    }

    private double perSecond(Map<String, Object> m, String where) {
        int given = 0;
        double rate = 0;
        if (m.containsKey("perSecond")) {
            given++;
            rate = nonNegative(m, "perSecond", where);
        }
        if (m.containsKey("perHour")) {
            given++;
            rate = nonNegative(m, "perHour", where) / SECONDS_PER_HOUR;
        }
        if (m.containsKey("perDay")) {
            given++;
            rate = nonNegative(m, "perDay", where) / SECONDS_PER_DAY;
        }
        if (given > 1) {
            throw new ModelError(where + ": give one of perSecond, perHour, perDay");
        }
        return rate;
    }

    private Request request(Map<String, Object> m, String where, Map<String, Entity> entities) {
        only(m, where + " request", REQUEST_FIELDS);
        String op = string(m, "operation", where, true);
        if ("SearchVectors".equals(op)) {
            throw new ModelError(where + ": SearchVectors patterns are not modelled yet (the server serves "
                    + "SearchVectors; the model cannot price it)");
        }
        if (!OPERATIONS.contains(op) && !Set.of("ConditionCheck").contains(op)) {
            throw new ModelError(where + ": unknown operation \"" + op + "\" (one of "
                    + String.join(", ", new java.util.TreeSet<>(OPERATIONS)) + ")");
        }
        String entity = string(m, "entity", where, false);
        if (entity != null && !entities.containsKey(entity)) {
            throw fieldError(
                    m,
                    "entity",
                    where + ": no entity named \"" + entity + "\"" + Nearest.hint(entity, entities.keySet()));
        }
        boolean needsKey =
                Set.of("GetItem", "UpdateItem", "DeleteItem", "ConditionCheck").contains(op);
        if (needsKey && !(m.get("key") instanceof Map)) {
            throw new ModelError(where + ": " + op + " needs a key");
        }
        if (op.equals("Query") && !(m.get("keyCondition") instanceof String)) {
            throw new ModelError(where + ": Query needs a keyCondition");
        }
        if (op.equals("PutItem") && entity == null) {
            throw new ModelError(where + ": PutItem needs the entity whose new item it writes");
        }
        if (op.equals("UpdateItem") && !(m.get("update") instanceof String)) {
            throw new ModelError(where + ": UpdateItem needs an update expression");
        }
        if (op.equals("BatchGetItem") && !(m.get("keys") instanceof List)) {
            throw new ModelError(where + ": BatchGetItem needs keys");
        }
        if (op.startsWith("Transact") || op.equals("BatchWriteItem")) {
            for (Object o : list(m.get("actions"), where + " actions", true)) {
                Map<String, Object> written = object(o, where + " action", true);
                only(written, where + " action", REQUEST_FIELDS);
                Map<String, Object> action = inherit(written, entity);
                within(written, () -> request(action, where + " action", entities));
            }
        }
        String unfilled = TemplateCheck.request(m, entity == null ? null : entities.get(entity));
        if (unfilled != null) {
            throw new ModelError(where + ": " + unfilled);
        }
        return new Request(op, entity, m);
    }

    /** A step or action without an entity of its own takes its pattern's (a copy; the file's tree is kept). */
    private static Map<String, Object> inherit(Map<String, Object> written, String entity) {
        if (written.get("entity") != null || entity == null) {
            return written;
        }
        Map<String, Object> copy = new LinkedHashMap<>(written);
        copy.put("entity", entity);
        return copy;
    }

    // ----- small readers -----

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    private void only(Map<String, Object> m, String where, Set<String> allowed) {
        for (String k : m.keySet()) {
            if (!allowed.contains(k)) {
                throw new ModelError(where + ": unknown field \"" + k + "\"" + Nearest.hint(k, allowed))
                        .at(place(source == null ? null : source.field(m, k)));
            }
        }
    }

    /** "chat.json:140:7", or null for a tree built in code. */
    private String place(SourceTree.Position p) {
        return file == null || p == null ? null : file + ":" + p;
    }

    /** Where an object of the file starts. */
    private String startOf(Map<String, Object> m) {
        return place(source == null ? null : source.start(m));
    }

    /**
     * Reads one object of the file; an error inside it that does not yet say where it is, is placed at
     * the object's start: the nearest place the reader knows.
     */
    private <T> T within(Map<String, Object> m, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (ModelError e) {
            throw e.at(startOf(m));
        }
    }

    /** Where a field of an object is written, for an error about its value. */
    private ModelError fieldError(Map<String, Object> m, String field, String message) {
        return new ModelError(message).at(place(source == null ? null : source.field(m, field)));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object o, String where, boolean required) {
        if (o == null) {
            if (required) {
                throw new ModelError(where + " is missing");
            }
            return null;
        }
        if (!(o instanceof Map)) {
            throw new ModelError(where + " must be an object");
        }
        return (Map<String, Object>) o;
    }

    static List<Object> list(Object o, String where, boolean required) {
        if (o == null) {
            if (required) {
                throw new ModelError(where + " is missing");
            }
            return List.of();
        }
        if (!(o instanceof List<?> l)) {
            throw new ModelError(where + " must be an array");
        }
        return new ArrayList<>(l);
    }

    private String string(Map<String, Object> m, String field, String where, boolean required) {
        Object o = m.get(field);
        if (o == null) {
            if (required) {
                throw new ModelError(where + ": " + field + " is missing");
            }
            return null;
        }
        if (!(o instanceof String s)) {
            throw new ModelError(where + ": " + field + " must be a string");
        }
        return s;
    }

    private boolean bool(Map<String, Object> m, String field, String where) {
        Object o = m.get(field);
        if (o != null && !(o instanceof Boolean)) {
            throw fieldError(m, field, where + ": " + field + " must be true or false");
        }
        return Boolean.TRUE.equals(o);
    }

    private double nonNegative(Map<String, Object> m, String field, String where) {
        Double d = Json.number(m.get(field));
        if (d == null || d < 0 || d.isInfinite()) {
            throw new ModelError(where + ": " + field + " must be a number >= 0");
        }
        return d;
    }

    private Long longValue(Map<String, Object> m, String field, String where) {
        Object o = m.get(field);
        if (o == null) {
            return null;
        }
        Double d = Json.number(o);
        if (d == null || d < 0 || d != Math.floor(d)) {
            throw new ModelError(where + ": " + field + " must be a whole number >= 0");
        }
        return d.longValue();
    }

    private int intValue(Map<String, Object> m, String field, String where, int min, int max, int dflt) {
        Long v = longValue(m, field, where);
        if (v == null) {
            return dflt;
        }
        if (v < min || v > max) {
            throw new ModelError(where + ": " + field + " must be between " + min + " and " + max);
        }
        return v.intValue();
    }
}
