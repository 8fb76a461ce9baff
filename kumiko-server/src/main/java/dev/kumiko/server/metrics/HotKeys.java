package dev.kumiko.server.metrics;

import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Requests and capacity per partition key (of the table, or of an index for an index query), for
 * the console's hot-key view. Memory is bounded: past {@link #KEYS_MAX} keys the coldest quarter
 * is dropped, so a key that stays hot is always kept. Finding an existing key allocates nothing
 * (three lookups on objects the request already holds).
 *
 * <p>Once full, a key not yet counted is let in on one request in {@link #ADMIT_ONE_IN_WHEN_FULL},
 * at random: a workload over many more keys than the bound (every random read, say) would otherwise
 * add a key and evict on nearly every request. A hot key is let in within a few dozen requests and
 * loses only those from its counts; a key seen once rarely displaces anything.
 */
public final class HotKeys {
    static final int KEYS_MAX = 2_000;
    static final int ADMIT_ONE_IN_WHEN_FULL = 16;
    /** DynamoDB's per-partition limits (Developer Guide, "Partitions and data distribution"). */
    public static final double PARTITION_READ_UNITS_PER_SECOND = 3_000;

    public static final double PARTITION_WRITE_UNITS_PER_SECOND = 1_000;
    /** A key is flagged once its busiest recent second reaches this share of a limit. */
    public static final double NEAR_LIMIT_SHARE = 0.8;

    private static final String TABLE = "";

    /** Table name → index name ("" for the table) → partition key value → heat. */
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, ConcurrentHashMap<AttributeValue, KeyHeat>>>
            heat = new ConcurrentHashMap<>();

    private final AtomicInteger size = new AtomicInteger();

    void record(String tableName, @Nullable String indexName, AttributeValue partitionKey, boolean read, double units) {
        long now = System.currentTimeMillis();
        String index = indexName == null ? TABLE : indexName;
        var indexes = heat.get(tableName);
        var keys = indexes == null ? null : indexes.get(index);
        KeyHeat h = keys == null ? null : keys.get(partitionKey);
        if (h == null) {
            if (size.get() >= KEYS_MAX && ThreadLocalRandom.current().nextInt(ADMIT_ONE_IN_WHEN_FULL) != 0) {
                return;
            }
            h = create(tableName, index, partitionKey, now);
        }
        h.add(read, units, now);
    }

    private KeyHeat create(String tableName, String index, AttributeValue partitionKey, long now) {
        if (size.get() >= KEYS_MAX) {
            evictColdest(now);
        }
        var keys = heat.computeIfAbsent(tableName, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(index, x -> new ConcurrentHashMap<>());
        return keys.computeIfAbsent(partitionKey, k -> {
            size.incrementAndGet();
            return new KeyHeat(tableName, index, k, now);
        });
    }

    private synchronized void evictColdest(long now) {
        if (size.get() < KEYS_MAX) {
            return;
        }
        // Each key is scored once: a score takes the key's lock and may decay it, and a workload of
        // random keys evicts every KEYS_MAX / 4 requests.
        List<Scored> all = new ArrayList<>(size.get());
        for (KeyHeat h : all()) {
            all.add(new Scored(h, h.score(now)));
        }
        all.sort(Comparator.comparingDouble(Scored::score));
        for (Scored s : all.subList(0, all.size() / 4)) {
            KeyHeat h = s.heat();
            var indexes = heat.get(h.tableName); // null: the table was forgotten meanwhile
            var keys = indexes == null ? null : indexes.get(h.indexName);
            if (keys != null && keys.remove(h.partitionKey) != null) {
                size.decrementAndGet();
            }
        }
    }

    private record Scored(KeyHeat heat, double score) {}

    /** The {@code limit} busiest keys now, busiest first. */
    public List<KeyHeat.View> top(int limit) {
        long now = System.currentTimeMillis();
        List<KeyHeat.View> views = new ArrayList<>();
        for (KeyHeat h : all()) {
            views.add(h.view(now));
        }
        views.sort(Comparator.comparingDouble((KeyHeat.View v) -> v.requests() + v.readUnits() + v.writeUnits())
                .reversed());
        return views.subList(0, Math.min(limit, views.size()));
    }

    private List<KeyHeat> all() {
        List<KeyHeat> out = new ArrayList<>(size.get());
        heat.values().forEach(indexes -> indexes.values().forEach(keys -> out.addAll(keys.values())));
        return out;
    }

    /** Forgets a dropped table's keys. */
    void forget(String tableName) {
        var indexes = heat.remove(tableName);
        if (indexes != null) {
            indexes.values().forEach(keys -> size.addAndGet(-keys.size()));
        }
    }
}
