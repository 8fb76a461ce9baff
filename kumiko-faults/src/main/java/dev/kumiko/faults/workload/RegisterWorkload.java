package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * Single-item registers: strongly consistent GetItem, PutItem, and UpdateItem with a condition as
 * compare-and-set, on a few keys at a time. Values are 0-4, so that a cas often finds what it
 * expects. Judged by {@link dev.kumiko.faults.check.RegisterChecker}.
 */
public final class RegisterWorkload implements Workload {
    public static final String TABLE = "faults_registers";
    private static final String VALUE = "v";
    private static final int VALUES = 5;
    private static final long MALFORMED = -1;

    private final KeyRotation keys;

    public RegisterWorkload(int keysAtOnce, int operationsPerKey) {
        keys = new KeyRotation("r", keysAtOnce, operationsPerKey);
    }

    @Override
    public void setUp(DynamoDbClient client, Recorder recorder) throws InterruptedException {
        Calls.ensureTable(client, TABLE);
    }

    @Override
    public EventType step(int process, DynamoDbClient client, Random random, Recorder recorder) {
        String key = keys.next(random);
        int choice = random.nextInt(4);
        if (choice <= 1) {
            return Calls.record(recorder, process, "read", key, null, () -> read(client, key));
        }
        long value = random.nextInt(VALUES);
        if (choice == 2) {
            return Calls.record(recorder, process, "write", key, value, () -> write(client, key, value));
        }
        Long expected = random.nextInt(8) == 0 ? null : (long) random.nextInt(VALUES);
        return Calls.record(
                recorder, process, "cas", key, Arrays.asList(expected, value), () -> cas(client, key, expected, value));
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

    private static @Nullable Long read(DynamoDbClient client, String key) {
        GetItemResponse r = client.getItem(b -> b.tableName(TABLE).key(key(key)).consistentRead(true));
        if (!r.hasItem() || r.item().isEmpty()) {
            return null;
        }
        AttributeValue stored = r.item().get(VALUE);
        // An item without its value: no write writes -1, so the checker reports it.
        return stored == null ? MALFORMED : Long.parseLong(stored.n());
    }

    private static @Nullable Object write(DynamoDbClient client, String key, long value) {
        client.putItem(b -> b.tableName(TABLE)
                .item(Map.of(Calls.KEY, AttributeValue.fromS(key), VALUE, AttributeValue.fromN(Long.toString(value)))));
        return null;
    }

    private static Boolean cas(DynamoDbClient client, String key, @Nullable Long expected, long value) {
        try {
            client.updateItem(b -> {
                b.tableName(TABLE).key(key(key)).updateExpression("SET #v = :new");
                if (expected == null) {
                    b.conditionExpression("attribute_not_exists(#v)")
                            .expressionAttributeNames(Map.of("#v", VALUE))
                            .expressionAttributeValues(Map.of(":new", AttributeValue.fromN(Long.toString(value))));
                } else {
                    b.conditionExpression("#v = :old")
                            .expressionAttributeNames(Map.of("#v", VALUE))
                            .expressionAttributeValues(Map.of(
                                    ":new", AttributeValue.fromN(Long.toString(value)),
                                    ":old", AttributeValue.fromN(Long.toString(expected))));
                }
            });
            return true;
        } catch (ConditionalCheckFailedException refused) {
            return false;
        }
    }
}
