package dev.kumiko.tools.model;

import dev.kumiko.model.ItemSize;
import dev.kumiko.server.protocol.AttributeValues;
import dev.kumiko.tools.model.Model.Attribute;
import dev.kumiko.tools.model.Model.Design;
import dev.kumiko.tools.model.Model.Entity;
import dev.kumiko.tools.model.Model.Index;
import dev.kumiko.tools.model.Model.KeyAttribute;
import dev.kumiko.tools.model.Model.TableSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sample items of a design, generated from its entities (docs/modeling.md, "Sample data"). An entity
 * fills {@code partitions} item collections; one whose sort key has parameters that its partition key lacks
 * holds {@code perCollection} (default: the scale) items in each, else one. A parameter that appears in some
 * entity's partition key ("roomId") takes the same values everywhere, so references between entities land on
 * real items.
 */
final class SampleData {
    /** One generated item: its entity, place, the text of every parameter, the wire item and its size. */
    record SampleItem(
            Entity entity,
            int partition,
            int ordinal,
            Map<String, String> params,
            Map<String, Object> item,
            long sizeBytes) {}

    private final Design design;
    private final int partitionsDefault;
    private final int scale;
    private final ValueGenerator values;
    private final Set<String> partitionParams = new HashSet<>();
    private final Map<String, String> keyTypes = new HashMap<>();
    private final List<SampleItem> items = new ArrayList<>();

    SampleData(Design design, int partitionsDefault, int scale, long seed, long nowEpochSeconds) {
        this.design = design;
        this.partitionsDefault = partitionsDefault;
        this.scale = scale;
        this.values = new ValueGenerator(seed, nowEpochSeconds);
        TableSpec t = design.table();
        for (Entity e : design.entities()) {
            partitionParams.addAll(e.keys().get(t.partitionKey().name()).parameters());
        }
        keyType(t.partitionKey());
        keyType(t.sortKey());
        for (Index i : t.globalSecondaryIndexes()) {
            keyType(i.partitionKey());
            keyType(i.sortKey());
        }
        for (Index i : t.localSecondaryIndexes()) {
            keyType(i.sortKey());
        }
        Map<String, SampleItem> byKey = new LinkedHashMap<>();
        for (Entity e : design.entities()) {
            for (int p = 0; p < partitions(e); p++) {
                for (int k = 0; k < perCollection(e); k++) {
                    SampleItem item = generate(e, p, k);
                    // Two ordinals may render the same key (a reference cycling through fewer partitions
                    // than the collection has items); the later one wins, as a second PutItem would.
                    byKey.put(primaryKey(item), item);
                }
            }
        }
        items.addAll(byKey.values());
    }

    List<SampleItem> items() {
        return items;
    }

    Design design() {
        return design;
    }

    int partitions(Entity e) {
        return e.partitions() != null ? e.partitions() : partitionsDefault;
    }

    int perCollection(Entity e) {
        if (e.perCollection() != null) {
            return e.perCollection();
        }
        return freeSortParameters(e) ? scale : 1;
    }

    /** The item a pattern's templates are bound to: the first of the entity in the given partition. */
    SampleItem sample(String entityName, int partition) {
        Entity e = design.entity(entityName);
        return generate(e, Math.floorMod(partition, partitions(e)), 0);
    }

    /** An item of the entity that is not in the sample data, for a pattern that writes a new one. */
    SampleItem fresh(String entityName) {
        Entity e = design.entity(entityName);
        int n = perCollection(e);
        return n > 1 ? generate(e, 0, n) : generate(e, partitions(e), 0);
    }

    private boolean freeSortParameters(Entity e) {
        TableSpec t = design.table();
        if (t.sortKey() == null) {
            return false;
        }
        List<String> pk = e.keys().get(t.partitionKey().name()).parameters();
        for (String p : e.keys().get(t.sortKey().name()).parameters()) {
            if (!pk.contains(p)) {
                return true;
            }
        }
        return false;
    }

    private SampleItem generate(Entity e, int partition, int ordinal) {
        List<String> pkParams =
                e.keys().get(design.table().partitionKey().name()).parameters();
        Map<String, String> params = new LinkedHashMap<>();
        Map<String, Object> attrs = new LinkedHashMap<>();
        Attribute filler = null;
        for (Attribute a : e.attributes().values()) {
            if (a.type().equals("filler")) {
                filler = a;
                continue;
            }
            ValueGenerator.Value v = values.value(a, index(e, a, pkParams, partition, ordinal), ordinal);
            params.put(a.name(), v.text());
            if (a.stored()) {
                attrs.put(a.name(), v.wire());
            }
        }
        for (KeyTemplate t : e.keys().values()) {
            for (String p : t.parameters()) {
                if (!params.containsKey(p)) {
                    Attribute implicit = new Attribute(p, "id", Map.of(), false);
                    params.put(
                            p,
                            values.value(implicit, index(e, implicit, pkParams, partition, ordinal), ordinal)
                                    .text());
                }
            }
        }
        Map<String, Object> item = new LinkedHashMap<>();
        for (Map.Entry<String, KeyTemplate> k : e.keys().entrySet()) {
            String text = k.getValue().render(params);
            item.put(k.getKey(), Map.of("N".equals(keyTypes.get(k.getKey())) ? "N" : "S", text));
        }
        for (Map.Entry<String, Object> a : attrs.entrySet()) {
            item.putIfAbsent(a.getKey(), a.getValue());
        }
        long size = size(item);
        if (filler != null) {
            long room = e.sizeBytes() - size - filler.name().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (room < 0) {
                throw new ModelError("entity " + e.name() + ": sizeBytes " + e.sizeBytes()
                        + " is less than its other attributes take (" + size + " bytes)");
            }
            item.put(filler.name(), ValueGenerator.filler((int) room).wire());
            size = size(item);
        }
        return new SampleItem(e, partition, ordinal, params, item, size);
    }

    /** Which value a parameter takes: see the class comment. */
    private long index(Entity e, Attribute a, List<String> pkParams, int partition, int ordinal) {
        int partitionCount = partitions(e);
        if (pkParams.contains(a.name())) {
            return partition;
        }
        if (partitionParams.contains(a.name())) {
            return ((long) partition + ordinal) % Math.max(partitionCount, partitionsDefault);
        }
        Double cardinality = Json.number(a.options().get("cardinality"));
        if (cardinality != null && cardinality >= 1) {
            long c = cardinality.longValue();
            return partition * c + ordinal % c;
        }
        return (long) partition * (perCollection(e) + 1) + ordinal;
    }

    private String primaryKey(SampleItem s) {
        TableSpec t = design.table();
        Object sk = t.sortKey() == null ? "" : s.item().get(t.sortKey().name());
        return s.item().get(t.partitionKey().name()) + "\u0000" + sk;
    }

    private void keyType(KeyAttribute k) {
        if (k != null) {
            keyTypes.put(k.name(), k.type());
        }
    }

    /** The item's size by DynamoDB's rules (the engine's ItemSize, applied to the decoded wire item). */
    static long size(Map<String, Object> wireItem) {
        return ItemSize.of(AttributeValues.decodeMap(wireItem, 0));
    }
}
