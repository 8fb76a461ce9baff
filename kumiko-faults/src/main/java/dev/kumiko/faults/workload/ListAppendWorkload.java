package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * List append: UpdateItem {@code SET l = list_append(if_not_exists(l, :empty), :x)} with a number
 * unique in the run, and strongly consistent GetItem reads of the list, on a few keys at a time.
 * Judged by {@link dev.kumiko.faults.check.ListAppendChecker}.
 */
public final class ListAppendWorkload implements Workload {
    public static final String TABLE = "faults_lists";
    private static final String LIST = "l";
    /** Read for an item without a list: no append writes it, so the checker reports it. */
    private static final long MALFORMED = -1;

    private final KeyRotation keys;
    private final AtomicLong elements = new AtomicLong();

    public ListAppendWorkload(int keysAtOnce, int appendsPerKey) {
        keys = new KeyRotation("l", keysAtOnce, appendsPerKey);
    }

    @Override
    public void setUp(DynamoDbClient client, Recorder recorder) throws InterruptedException {
        Calls.ensureTable(client, TABLE);
    }

    @Override
    public EventType step(int process, DynamoDbClient client, Random random, Recorder recorder) {
        String key = keys.next(random);
        if (random.nextInt(5) < 2) {
            return Calls.record(recorder, process, "read", key, null, () -> read(client, key));
        }
        long x = elements.incrementAndGet();
        return Calls.record(recorder, process, "append", key, x, () -> append(client, key, x));
    }

    @Override
    public void finish(int process, DynamoDbClient client, Recorder recorder, long deadlineNanos)
            throws InterruptedException {
        int p = process;
        for (String key : keys.used()) {
            p = Calls.recordUntilKnown(recorder, p, "read", key, null, () -> read(client, key), deadlineNanos);
        }
    }

    private static Map<String, AttributeValue> key(String key) {
        return Map.of(Calls.KEY, AttributeValue.fromS(key));
    }

    private static @Nullable List<Long> read(DynamoDbClient client, String key) {
        GetItemResponse r = client.getItem(b -> b.tableName(TABLE).key(key(key)).consistentRead(true));
        if (!r.hasItem() || r.item().isEmpty()) {
            return null;
        }
        AttributeValue stored = r.item().get(LIST);
        if (stored == null) {
            return List.of(MALFORMED); // an item without its list: the checker reports it as never appended
        }
        List<Long> list = new ArrayList<>();
        for (AttributeValue v : stored.l()) {
            list.add(Long.parseLong(v.n()));
        }
        return list;
    }

    private static @Nullable Object append(DynamoDbClient client, String key, long x) {
        client.updateItem(b -> b.tableName(TABLE)
                .key(key(key))
                .updateExpression("SET #l = list_append(if_not_exists(#l, :empty), :x)")
                .expressionAttributeNames(Map.of("#l", LIST))
                .expressionAttributeValues(Map.of(
                        ":empty", AttributeValue.fromL(List.of()),
                        ":x", AttributeValue.fromL(List.of(AttributeValue.fromN(Long.toString(x)))))));
        return null;
    }
}
