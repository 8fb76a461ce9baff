package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Recording one call, and the table a workload uses. */
final class Calls {
    /** The partition key attribute of every workload table (a string). */
    static final String KEY = "k";

    private static final long TABLE_ACTIVE_WAIT_MILLIS = 60_000;

    private static final long RETRY_PAUSE_MILLIS = 200;

    private Calls() {}

    /**
     * Records the invocation, makes the call, records its completion: ok with what it returned, or
     * fail / info by what its error says. Returns the outcome; after an unknown one the process that
     * made it must not be used again (its operation may still be in flight).
     */
    static EventType record(
            Recorder recorder,
            int process,
            String f,
            String key,
            @Nullable Object argument,
            Callable<@Nullable Object> call) {
        recorder.record(process, EventType.INVOKE, f, key, argument);
        @Nullable Object result;
        try {
            result = call.call();
        } catch (Exception e) {
            EventType outcome = Outcomes.of(e);
            recorder.noteError(f + ": " + Outcomes.name(e));
            recorder.record(process, outcome, f, key, null);
            return outcome;
        }
        recorder.record(process, EventType.OK, f, key, result);
        return EventType.OK;
    }

    /**
     * Records the call again, as a new process each time, until it succeeds or the deadline
     * passes (a final read after the faults healed); returns the next process number to use.
     */
    static int recordUntilKnown(
            Recorder recorder,
            int process,
            String f,
            String key,
            @Nullable Object argument,
            Callable<@Nullable Object> call,
            long deadlineNanos)
            throws InterruptedException {
        int p = process;
        while (record(recorder, p++, f, key, argument, call) != EventType.OK && System.nanoTime() < deadlineNanos) {
            Thread.sleep(RETRY_PAUSE_MILLIS);
        }
        return p;
    }

    /** Creates the table with a string partition key named {@value #KEY}, unless it exists, and waits for it. */
    static void ensureTable(DynamoDbClient client, String table) throws InterruptedException {
        ensureTable(client, table, null);
    }

    /** As {@link #ensureTable(DynamoDbClient, String)}, with a stream when one is given. */
    static void ensureTable(DynamoDbClient client, String table, @Nullable StreamSpecification stream)
            throws InterruptedException {
        try {
            client.createTable(b -> b.tableName(table)
                    .streamSpecification(stream)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(AttributeDefinition.builder()
                            .attributeName(KEY)
                            .attributeType(ScalarAttributeType.S)
                            .build())
                    .keySchema(KeySchemaElement.builder()
                            .attributeName(KEY)
                            .keyType(KeyType.HASH)
                            .build()));
        } catch (ResourceInUseException exists) {
            // Created by an earlier run or the other server: used as it is.
        }
        long deadline = System.nanoTime() + TABLE_ACTIVE_WAIT_MILLIS * 1_000_000;
        while (client.describeTable(b -> b.tableName(table)).table().tableStatus() != TableStatus.ACTIVE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(table + " not active after " + TABLE_ACTIVE_WAIT_MILLIS + " ms");
            }
            Thread.sleep(100);
        }
    }
}
