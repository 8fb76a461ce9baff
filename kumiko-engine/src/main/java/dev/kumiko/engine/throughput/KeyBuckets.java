package dev.kumiko.engine.throughput;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DynamoDB's per-partition-key limits: each partition key value may consume at most 3,000 read
 * units or 1,000 write units a second, whatever the table's capacity mode. Burst capacity does not
 * apply, so each key's bucket holds one second of units.
 *
 * <p>Memory is bounded: the buckets of the least recently used keys are dropped beyond
 * {@link #KEYS_MAX}. A dropped key starts again with a full bucket, which is what it would have
 * after one idle second anyway; only a workload touching more than KEYS_MAX keys within a second
 * can see a hot key forgiven early.
 */
final class KeyBuckets {
    /** DynamoDB's per-partition limits (Developer Guide, "Partitions and data distribution"). */
    static final long PARTITION_READ_UNITS_PER_SECOND = 3_000;

    static final long PARTITION_WRITE_UNITS_PER_SECOND = 1_000;
    static final long PARTITION_BURST_SECONDS = 1;
    /** Keys tracked at once, over all tables; each costs about 200 bytes. */
    static final int KEYS_MAX = 100_000;

    private final int keysMax;
    private final LinkedHashMap<ByteBuffer, TokenBucket> buckets;

    KeyBuckets(int keysMax) {
        assert keysMax > 0;
        this.keysMax = keysMax;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, TokenBucket> eldest) {
                return size() > KeyBuckets.this.keysMax;
            }
        };
    }

    /**
     * The bucket of one key, created full. {@code key} identifies table, direction and partition
     * key value; it must not be changed afterwards.
     */
    synchronized TokenBucket bucket(byte[] key, boolean read, long nowMillis) {
        return buckets.computeIfAbsent(
                ByteBuffer.wrap(key),
                k -> new TokenBucket(
                        read ? PARTITION_READ_UNITS_PER_SECOND : PARTITION_WRITE_UNITS_PER_SECOND,
                        PARTITION_BURST_SECONDS,
                        nowMillis));
    }

    synchronized int size() {
        return buckets.size();
    }
}
