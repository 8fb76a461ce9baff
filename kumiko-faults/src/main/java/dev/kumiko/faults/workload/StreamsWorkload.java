package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Streams: PutItem of a number unique in the run to a few keys at a time, on a table whose stream
 * carries new and old images; after the faults, each server reads the whole stream and every key
 * with a strongly consistent GetItem. Judged by {@link dev.kumiko.faults.check.StreamsChecker}:
 * every acknowledged write appears exactly once in its item's records, in order.
 *
 * <p>The final stream read is repeated until it holds every acknowledged write or the deadline
 * passes: DynamoDB promises stream records in near real time, not at the write's acknowledgement, so
 * only a record still missing at the deadline counts as lost.
 */
public final class StreamsWorkload implements Workload {
    public static final String TABLE = "faults_streams";
    private static final String VALUE = "v";
    private static final long STREAM_RETRY_MILLIS = 1000;

    private final KeyRotation keys;
    private final AtomicLong values = new AtomicLong();
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();

    public StreamsWorkload(int keysAtOnce, int writesPerKey) {
        keys = new KeyRotation("s", keysAtOnce, writesPerKey);
    }

    @Override
    public void setUp(DynamoDbClient client, Recorder recorder) throws InterruptedException {
        Calls.ensureTable(
                client,
                TABLE,
                StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build());
    }

    @Override
    public EventType step(int process, DynamoDbClient client, Random random, Recorder recorder) {
        String key = keys.next(random);
        long x = values.incrementAndGet();
        EventType outcome = Calls.record(recorder, process, "write", key, x, () -> write(client, key, x));
        if (outcome == EventType.OK) {
            acknowledged.add(x);
        }
        return outcome;
    }

    @Override
    public void finish(int process, DynamoDbClient client, Recorder recorder, long deadlineNanos)
            throws InterruptedException {
        // The stream first, with half of the time: it is what this workload checks; the key reads
        // after it only cross-check it, and a slow server must not spend the stream's time on them.
        long streamDeadline = System.nanoTime() + (deadlineNanos - System.nanoTime()) / 2;
        URI endpoint = client.serviceClientConfiguration()
                .endpointOverride()
                .orElseThrow(() -> new IllegalStateException("a workload client names its server"));
        long leftMillis = Math.max(1000, TimeUnit.NANOSECONDS.toMillis(streamDeadline - System.nanoTime()));
        int p = process;
        try (DynamoDbStreamsClient streams = Clients.streamsOf(endpoint, Math.min(leftMillis, 60_000))) {
            p = readStream(p, client, streams, recorder, streamDeadline);
        }
        for (String key : keys.used()) {
            p = Calls.recordUntilKnown(recorder, p, "read", key, null, () -> read(client, key), deadlineNanos);
        }
    }

    /**
     * Reads the stream until it holds every acknowledged write, or the deadline; every read is
     * recorded. Returns the next process number to use.
     */
    private int readStream(
            int process, DynamoDbClient client, DynamoDbStreamsClient streams, Recorder recorder, long deadlineNanos)
            throws InterruptedException {
        Set<String> used = new HashSet<>(keys.used());
        String server = streams.serviceClientConfiguration()
                .endpointOverride()
                .map(URI::toString)
                .orElse("?");
        int p = process;
        while (true) {
            boolean last = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STREAM_RETRY_MILLIS) > deadlineNanos;
            Map<String, List<List<@Nullable Long>>> seen = new HashMap<>();
            EventType outcome = Calls.record(recorder, p++, "stream", "*", server, () -> {
                seen.putAll(StreamReader.read(streams, streamArn(client), used, Calls.KEY, VALUE));
                return seen;
            });
            if (last || (outcome == EventType.OK && holdsEveryAcknowledged(seen))) {
                return p;
            }
            Thread.sleep(STREAM_RETRY_MILLIS);
        }
    }

    private boolean holdsEveryAcknowledged(Map<String, List<List<@Nullable Long>>> seen) {
        Set<Long> present = new HashSet<>();
        for (List<List<@Nullable Long>> records : seen.values()) {
            for (List<@Nullable Long> pair : records) {
                present.add(pair.get(0));
            }
        }
        return present.containsAll(acknowledged);
    }

    private static String streamArn(DynamoDbClient client) {
        String arn = client.describeTable(b -> b.tableName(TABLE)).table().latestStreamArn();
        if (arn == null) {
            throw new IllegalStateException(TABLE + " has no stream");
        }
        return arn;
    }

    private static Map<String, AttributeValue> key(String key) {
        return Map.of(Calls.KEY, AttributeValue.fromS(key));
    }

    private static @Nullable Object write(DynamoDbClient client, String key, long x) {
        client.putItem(b -> b.tableName(TABLE)
                .item(Map.of(Calls.KEY, AttributeValue.fromS(key), VALUE, AttributeValue.fromN(Long.toString(x)))));
        return null;
    }

    private static @Nullable Long read(DynamoDbClient client, String key) {
        GetItemResponse r = client.getItem(b -> b.tableName(TABLE).key(key(key)).consistentRead(true));
        if (!r.hasItem() || r.item().isEmpty()) {
            return null;
        }
        AttributeValue v = r.item().get(VALUE);
        return v == null ? Long.valueOf(-1) : Long.valueOf(Long.parseLong(v.n()));
    }
}
