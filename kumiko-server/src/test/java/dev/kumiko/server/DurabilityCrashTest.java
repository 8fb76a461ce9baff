package dev.kumiko.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What an acknowledged write survives (docs/durability.md): {@code kumiko serve} on RocksDB, as a
 * child process, takes PutItem, UpdateItem ADD, BatchWriteItem and TransactWriteItems from
 * concurrent writers and is killed with SIGKILL mid-load, several times. After the last restart:
 * every acknowledged write is there, no transaction is half-applied, the GSI holds exactly the
 * table's items, and the stream holds exactly the committed changes, once each, in order.
 *
 * <p>The run is bounded by acknowledgement counts and a short load per life, not by a verdict on
 * timing: whichever request the kill interrupts, every check holds (see {@link CrashWriter}).
 */
@Tag("slow")
class DurabilityCrashTest {
    static final int KILLS = 3;
    static final int WRITERS_PER_KIND = 2;
    /** Each writer must have this many acknowledgements in a server's life before the kill. */
    static final long ACKS_PER_LIFE_MIN = 20;
    /** Load after every writer reached ACKS_PER_LIFE_MIN, so the kill falls in a busy stretch. */
    static final long LOAD_AFTER_MIN_MILLIS = 1_500;

    static final long ACKS_TIMEOUT_MILLIS = 60_000;
    static final long WRITER_EXIT_TIMEOUT_MILLIS = 30_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--durability={0}")
    @ValueSource(strings = {"process", "fsync"})
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyAcknowledgedWriteSurvivesKillMinus9(String durability) throws Exception {
        Path data = dir.resolve("data");
        List<CrashWriter> writers = writers();
        for (int life = 0; life < KILLS; life++) {
            try (ServerProcess server = ServerProcess.start(data, durability, dir.resolve("logs"))) {
                if (life == 0) {
                    createTable(server.client());
                }
                loadThenKill(server, writers);
            }
        }
        try (ServerProcess server = ServerProcess.start(data, durability, dir.resolve("logs"))) {
            verify(server, writers);
        }
    }

    private static List<CrashWriter> writers() {
        List<CrashWriter> out = new ArrayList<>();
        for (int w = 0; w < WRITERS_PER_KIND; w++) {
            out.add(new CrashWriter.Puts("put" + w));
            out.add(new CrashWriter.Batches("batch" + w));
            out.add(new CrashWriter.Counter("counter" + w));
            out.add(new CrashWriter.Transfers("transfer" + w));
        }
        return out;
    }

    private static void createTable(DynamoDbClient c) throws InterruptedException {
        c.createTable(b -> b.tableName(CrashWriter.TABLE)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .globalSecondaryIndexes(g -> g.indexName(CrashWriter.INDEX)
                        .keySchema(
                                k -> k.attributeName("g").keyType(KeyType.HASH),
                                k -> k.attributeName("pk").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (c.describeTable(b -> b.tableName(CrashWriter.TABLE)).table().tableStatus() != TableStatus.ACTIVE) {
            assertThat(System.nanoTime()).as("table ACTIVE in time").isLessThan(deadlineNanos);
            Thread.sleep(50);
        }
    }

    /**
     * Runs every writer on its own thread until each has ACKS_PER_LIFE_MIN acknowledgements, lets
     * them run on a little, then kills the server. An error before the kill fails the test; after
     * it, a failed request is the expected outcome of the crash.
     */
    private static void loadThenKill(ServerProcess server, List<CrashWriter> writers) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (CrashWriter w : writers) {
            w.acksThisLife.set(0);
            Thread t = new Thread(() -> writeUntilFailure(server, w, killed, errors), "crash-" + w.name);
            t.start();
            threads.add(t);
        }
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACKS_TIMEOUT_MILLIS);
        while (errors.isEmpty() && !writers.stream().allMatch(w -> w.acksThisLife.get() >= ACKS_PER_LIFE_MIN)) {
            assertThat(System.nanoTime()).as("writers acknowledged in time").isLessThan(deadlineNanos);
            Thread.sleep(20);
        }
        if (errors.isEmpty()) {
            Thread.sleep(LOAD_AFTER_MIN_MILLIS);
        }
        killed.set(true);
        server.killHard();
        for (Thread t : threads) {
            t.join(WRITER_EXIT_TIMEOUT_MILLIS);
            assertThat(t.isAlive()).as("%s ended after the kill", t.getName()).isFalse();
        }
        assertThat(errors)
                .as("errors before the kill; server stderr: %s", server.stderr())
                .isEmpty();
    }

    private static void writeUntilFailure(
            ServerProcess server, CrashWriter w, AtomicBoolean killed, ConcurrentLinkedQueue<Throwable> errors) {
        try (DynamoDbClient c = server.client()) {
            while (true) {
                w.writeOne(c);
            }
        } catch (SdkException | AssertionError e) {
            if (!killed.get()) {
                errors.add(e);
            }
        }
    }

    private static void verify(ServerProcess server, List<CrashWriter> writers) {
        try (DynamoDbClient c = server.client();
                DynamoDbStreamsClient streams = server.streamsClient()) {
            Map<String, Map<String, AttributeValue>> table = scan(c, null);
            assertSameItems("the GSI scanned", scan(c, CrashWriter.INDEX), table);
            assertSameItems("the GSI queried", queryEveryGroup(c), table);

            List<Record> stream = readStream(c, streams);
            assertSequenceNumbersIncrease(stream);
            Map<String, List<Record>> byKey = new LinkedHashMap<>();
            stream.forEach(
                    r -> byKey.computeIfAbsent(r.dynamodb().keys().get("pk").s(), k -> new ArrayList<>())
                            .add(r));
            Set<String> unrecorded = new TreeSet<>(table.keySet());
            unrecorded.removeAll(byKey.keySet());
            Set<String> recordedOnly = new TreeSet<>(byKey.keySet());
            recordedOnly.removeAll(table.keySet());
            assertThat(unrecorded).as("items without a stream record").isEmpty();
            assertThat(recordedOnly)
                    .as("stream records of items not in the table")
                    .isEmpty();

            int accounted = 0;
            for (CrashWriter w : writers) {
                accounted += w.verify(table, byKey);
            }
            assertThat(accounted).as("every item is one a writer wrote").isEqualTo(table.size());
            System.out.printf(
                    "crash test: %d items, %d stream records after %d kills%n", table.size(), stream.size(), KILLS);
        }
    }

    /** Names only the keys that differ, so a failure does not print thousands of items. */
    private static void assertSameItems(
            String what,
            Map<String, Map<String, AttributeValue>> index,
            Map<String, Map<String, AttributeValue>> table) {
        Set<String> missing = new TreeSet<>(table.keySet());
        missing.removeAll(index.keySet());
        Set<String> extra = new TreeSet<>(index.keySet());
        extra.removeAll(table.keySet());
        Set<String> differing = new TreeSet<>();
        index.forEach((pk, item) -> {
            if (table.containsKey(pk) && !table.get(pk).equals(item)) {
                differing.add(pk);
            }
        });
        assertThat(missing).as("%s: table items missing from the index", what).isEmpty();
        assertThat(extra).as("%s: index entries without a table item", what).isEmpty();
        assertThat(differing)
                .as("%s: index entries unlike their table item", what)
                .isEmpty();
    }

    private static Map<String, Map<String, AttributeValue>> scan(DynamoDbClient c, String index) {
        Map<String, Map<String, AttributeValue>> out = new HashMap<>();
        c.scanPaginator(b -> b.tableName(CrashWriter.TABLE).indexName(index).consistentRead(index == null))
                .items()
                .forEach(item -> assertThat(out.put(item.get("pk").s(), item)).isNull());
        return out;
    }

    private static Map<String, Map<String, AttributeValue>> queryEveryGroup(DynamoDbClient c) {
        Map<String, Map<String, AttributeValue>> out = new HashMap<>();
        for (int g = 0; g < CrashWriter.GROUPS; g++) {
            AttributeValue group = CrashWriter.group(g);
            c.queryPaginator(b -> b.tableName(CrashWriter.TABLE)
                            .indexName(CrashWriter.INDEX)
                            .keyConditionExpression("g = :g")
                            .expressionAttributeValues(Map.of(":g", group)))
                    .items()
                    .forEach(item ->
                            assertThat(out.put(item.get("pk").s(), item)).isNull());
        }
        return out;
    }

    /** Every record of every shard from TRIM_HORIZON, shards in the order DescribeStream lists them. */
    private static List<Record> readStream(DynamoDbClient c, DynamoDbStreamsClient streams) {
        String arn =
                c.describeTable(b -> b.tableName(CrashWriter.TABLE)).table().latestStreamArn();
        List<Shard> shards = streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards();
        List<Record> out = new ArrayList<>();
        for (Shard shard : shards) {
            String it = streams.getShardIterator(b ->
                            b.streamArn(arn).shardId(shard.shardId()).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
            while (it != null) {
                String current = it;
                GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(current));
                out.addAll(r.records());
                // An open shard answers an empty page at its end, with an iterator to poll on.
                it = r.records().isEmpty() ? null : r.nextShardIterator();
            }
        }
        return out;
    }

    private static void assertSequenceNumbersIncrease(List<Record> stream) {
        Set<String> seen = new HashSet<>();
        BigInteger previous = BigInteger.valueOf(-1);
        for (Record r : stream) {
            String sequence = r.dynamodb().sequenceNumber();
            assertThat(seen.add(sequence))
                    .as("sequence number %s once", sequence)
                    .isTrue();
            BigInteger current = new BigInteger(sequence);
            assertThat(current).as("sequence numbers increase").isGreaterThan(previous);
            previous = current;
        }
    }
}
