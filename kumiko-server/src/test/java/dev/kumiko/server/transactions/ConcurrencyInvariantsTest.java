package dev.kumiko.server.transactions;

import static dev.kumiko.server.Txn.key;
import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * Conditional writes are serializable per item (the Developer Guide's isolation table), seen
 * from many clients at once on both stores: optimistic counters lose no increment and grant none
 * twice, ADD loses none, and of several creates-if-absent on one key exactly one wins. (Transfers
 * between items with TransactWriteItems, whose total must never change, are
 * {@link TransactIsolationTest}.) Runs are bounded by attempt counts, not by time.
 */
@Tag("slow")
class ConcurrencyInvariantsTest {
    private static final String TABLE = "invariants";
    private static final int THREADS = 8;
    /** Per thread; with 8 threads most attempts of the optimistic counter fail and retry. */
    private static final int ATTEMPTS_PER_THREAD = 40;

    private static final int ADDS_PER_THREAD = 40;
    private static final int CREATE_KEYS = 40;
    private static final long BARRIER_TIMEOUT_SECONDS = 60;

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void anOptimisticCounterCountsExactlyItsSuccesses(TestServer.StoreKind kind) throws Exception {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Txn.createHashTable(c, TABLE);
            c.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("counter"), "n", n(0))));
            ConcurrentLinkedQueue<Long> written = new ConcurrentLinkedQueue<>();
            runOnThreads(thread -> {
                for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                    long old = Long.parseLong(c.getItem(
                                    b -> b.tableName(TABLE).key(key("counter")).consistentRead(true))
                            .item()
                            .get("n")
                            .n());
                    try {
                        c.updateItem(b -> b.tableName(TABLE)
                                .key(key("counter"))
                                .updateExpression("SET n = :new")
                                .conditionExpression("n = :old")
                                .expressionAttributeValues(Map.of(":new", n(old + 1), ":old", n(old))));
                        written.add(old + 1);
                    } catch (ConditionalCheckFailedException e) {
                        assertConditionalCheckFailed(e);
                    }
                }
                return null;
            });
            long value = counter(c, "counter");
            assertThat(written).as("some increments succeed").isNotEmpty();
            assertThat(value).as("final value = successful conditional updates").isEqualTo(written.size());
            // Each success wrote a value no other success wrote: 1, 2, ..., value.
            assertThat(written)
                    .containsExactlyInAnyOrderElementsOf(
                            LongStream.rangeClosed(1, value).boxed().toList());
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void addCountsEveryAcknowledgedIncrement(TestServer.StoreKind kind) throws Exception {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Txn.createHashTable(c, TABLE);
            ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
            runOnThreads(thread -> {
                for (int i = 0; i < ADDS_PER_THREAD; i++) {
                    seen.add(Long.parseLong(c.updateItem(b -> b.tableName(TABLE)
                                    .key(key("adds"))
                                    .updateExpression("ADD n :one")
                                    .expressionAttributeValues(Map.of(":one", n(1)))
                                    .returnValues(ReturnValue.UPDATED_NEW))
                            .attributes()
                            .get("n")
                            .n()));
                }
                return null;
            });
            long acks = (long) THREADS * ADDS_PER_THREAD;
            assertThat(counter(c, "adds")).as("final value = acknowledged ADDs").isEqualTo(acks);
            // Each ADD saw its own new value: no two were applied to the same old value.
            assertThat(seen)
                    .containsExactlyInAnyOrderElementsOf(
                            LongStream.rangeClosed(1, acks).boxed().toList());
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void ofConcurrentCreatesIfAbsentExactlyOneWins(TestServer.StoreKind kind) throws Exception {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Txn.createHashTable(c, TABLE);
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<ConcurrentLinkedQueue<Integer>> winners = new ArrayList<>();
            for (int k = 0; k < CREATE_KEYS; k++) {
                winners.add(new ConcurrentLinkedQueue<>());
            }
            runOnThreads(thread -> {
                for (int k = 0; k < CREATE_KEYS; k++) {
                    String pk = "key-" + k;
                    // All threads go at one key together, so the creates really race.
                    start.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    try {
                        c.putItem(b -> b.tableName(TABLE)
                                .item(Map.of("pk", s(pk), "owner", n(thread)))
                                .conditionExpression("attribute_not_exists(pk)"));
                        winners.get(k).add(thread);
                    } catch (ConditionalCheckFailedException e) {
                        assertConditionalCheckFailed(e);
                    }
                }
                return null;
            });
            for (int k = 0; k < CREATE_KEYS; k++) {
                String pk = "key-" + k;
                assertThat(winners.get(k)).as("winners of %s", pk).hasSize(1);
                Map<String, AttributeValue> item = c.getItem(
                                b -> b.tableName(TABLE).key(key(pk)).consistentRead(true))
                        .item();
                assertThat(item)
                        .as("%s holds the winner's item", pk)
                        .isEqualTo(Map.of("pk", s(pk), "owner", n(winners.get(k).peek())));
            }
        }
    }

    private static void assertConditionalCheckFailed(ConditionalCheckFailedException e) {
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The conditional request failed");
    }

    private static long counter(DynamoDbClient c, String pk) {
        return Long.parseLong(c.getItem(b -> b.tableName(TABLE).key(key(pk)).consistentRead(true))
                .item()
                .get("n")
                .n());
    }

    /** A task per thread, numbered; rethrows the first failure (an assertion in a thread included). */
    private interface ThreadTask {
        Void run(int thread) throws Exception;
    }

    private static void runOnThreads(ThreadTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                Callable<Void> call = () -> task.run(thread);
                futures.add(pool.submit(call));
            }
            for (Future<Void> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
