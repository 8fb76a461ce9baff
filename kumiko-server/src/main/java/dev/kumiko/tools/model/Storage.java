package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.Entity;
import dev.kumiko.tools.model.Model.Index;
import dev.kumiko.tools.model.Model.TableSpec;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Billed storage of the sample items and, where entities give an expectedCount, of the expected data:
 * DynamoDB bills each item's size plus 100 bytes of overhead, in the table and again in every index that
 * holds it (Developer Guide, "Item sizes and formats"; the index copy is its projection).
 */
public record Storage(long sampleItems, long sampleBytes, long expectedItems, double expectedBytes) {
    static final int ITEM_OVERHEAD_BYTES = 100;

    static Storage of(SampleData data) {
        TableSpec t = data.design().table();
        Map<Entity, long[]> perEntity = new LinkedHashMap<>();
        long bytes = 0;
        for (SampleData.SampleItem s : data.items()) {
            long stored = s.sizeBytes() + ITEM_OVERHEAD_BYTES;
            for (Index i : t.globalSecondaryIndexes()) {
                stored += indexBytes(s.item(), t, i, i.partitionKey().name());
            }
            for (Index i : t.localSecondaryIndexes()) {
                stored += indexBytes(s.item(), t, i, t.partitionKey().name());
            }
            bytes += stored;
            long[] tally = perEntity.computeIfAbsent(s.entity(), e -> new long[2]);
            tally[0]++;
            tally[1] += stored;
        }
        long expectedItems = 0;
        double expectedBytes = 0;
        for (Map.Entry<Entity, long[]> e : perEntity.entrySet()) {
            long[] tally = e.getValue();
            long count = e.getKey().expectedCount() != null ? e.getKey().expectedCount() : tally[0];
            expectedItems += count;
            expectedBytes += (double) tally[1] / tally[0] * count;
        }
        return new Storage(data.items().size(), bytes, expectedItems, expectedBytes);
    }

    private static long indexBytes(Map<String, Object> item, TableSpec t, Index i, String pk) {
        if (!item.containsKey(pk)
                || (i.sortKey() != null && !item.containsKey(i.sortKey().name()))) {
            return 0; // a sparse index holds only the items that have its keys
        }
        if (i.projection().equals("ALL")) {
            return SampleData.size(item) + ITEM_OVERHEAD_BYTES;
        }
        Map<String, Object> projected = new HashMap<>();
        for (String name : keysAnd(t, i, pk)) {
            if (item.containsKey(name)) {
                projected.put(name, item.get(name));
            }
        }
        return SampleData.size(projected) + ITEM_OVERHEAD_BYTES;
    }

    private static List<String> keysAnd(TableSpec t, Index i, String pk) {
        java.util.ArrayList<String> names = new java.util.ArrayList<>(i.nonKeyAttributes());
        names.add(t.partitionKey().name());
        if (t.sortKey() != null) {
            names.add(t.sortKey().name());
        }
        names.add(pk);
        if (i.sortKey() != null) {
            names.add(i.sortKey().name());
        }
        return names;
    }
}
