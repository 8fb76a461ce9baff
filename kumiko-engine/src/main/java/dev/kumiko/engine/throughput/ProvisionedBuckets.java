package dev.kumiko.engine.throughput;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One provisioned table's buckets: read and write for the table (which LSIs share) and for each
 * GSI. Rates follow the descriptor each time a bucket is asked for; UpdateTable also calls
 * {@link #sync} so that the new rate counts from the update, not from the next request.
 */
final class ProvisionedBuckets {
    /** DynamoDB retains up to 300 seconds of unused capacity (Developer Guide, "burst capacity"). */
    static final long BURST_SECONDS = 300;

    /** Bucket by resource: "" for the table, else the GSI's name. */
    private final Map<String, TokenBucket> reads = new HashMap<>();

    private final Map<String, TokenBucket> writes = new HashMap<>();

    /** The table's bucket, or null when the table is not provisioned (nothing to enforce). */
    synchronized @Nullable TokenBucket table(TableDescriptor d, boolean read, long nowMillis) {
        Throughput t = d.throughput();
        return bucket(read, "", read ? t.readCapacityUnits() : t.writeCapacityUnits(), nowMillis);
    }

    /** A GSI's bucket, or null when it has no provisioned throughput. */
    synchronized @Nullable TokenBucket index(TableDescriptor d, IndexDescriptor x, boolean read, long nowMillis) {
        assert x.global();
        forgetDroppedIndexes(d);
        Throughput t = x.throughput();
        return bucket(read, x.indexName(), read ? t.readCapacityUnits() : t.writeCapacityUnits(), nowMillis);
    }

    /** Moves every bucket to the descriptor's rates now; drops those left without capacity. */
    synchronized void sync(TableDescriptor d, long nowMillis) {
        sync(reads, d, true, nowMillis);
        sync(writes, d, false, nowMillis);
    }

    private static void sync(Map<String, TokenBucket> map, TableDescriptor d, boolean read, long nowMillis) {
        map.entrySet().removeIf(e -> {
            Throughput t = throughput(d, e.getKey());
            long rate = t == null ? 0 : read ? t.readCapacityUnits() : t.writeCapacityUnits();
            if (rate > 0) {
                e.getValue().setRate(rate, nowMillis);
            }
            return rate <= 0;
        });
    }

    /** The throughput of the table ("") or of the named GSI; null when there is no such GSI. */
    private static @Nullable Throughput throughput(TableDescriptor d, String resource) {
        if (resource.isEmpty()) {
            return d.throughput();
        }
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            if (x.indexName().equals(resource)) {
                return x.throughput();
            }
        }
        return null;
    }

    private @Nullable TokenBucket bucket(boolean read, String resource, long unitsPerSecond, long nowMillis) {
        if (unitsPerSecond <= 0) {
            return null;
        }
        Map<String, TokenBucket> map = read ? reads : writes;
        TokenBucket b = map.get(resource);
        if (b == null) {
            b = new TokenBucket(unitsPerSecond, BURST_SECONDS, nowMillis);
            map.put(resource, b);
        } else {
            b.setRate(unitsPerSecond, nowMillis);
        }
        return b;
    }

    /** Keeps the maps as small as the table's GSIs (a table has at most 20) plus itself. */
    private void forgetDroppedIndexes(TableDescriptor d) {
        int allowed = d.globalSecondaryIndexes().size() + 1;
        if (reads.size() <= allowed && writes.size() <= allowed) {
            return;
        }
        Set<String> live = new HashSet<>();
        live.add("");
        d.globalSecondaryIndexes().forEach(x -> live.add(x.indexName()));
        reads.keySet().retainAll(live);
        writes.keySet().retainAll(live);
    }
}
