package dev.kumiko.server.streams;

import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** DynamoDB Streams through the AWS SDK v2 DynamoDbStreamsClient: records, iterators, shards. */
@Tag("slow")
public class StreamsTest {
    private static final String TABLE = "streamed";
    private static final long START_MILLIS = 1_700_000_000_000L;

    public static void createTable(DynamoDbClient c, String name, StreamViewType view) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(v -> v.streamEnabled(true).streamViewType(view)));
    }

    static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", s(pk), "sk", n(1));
    }

    public static Map<String, AttributeValue> item(String pk, String payload) {
        return Map.of("pk", s(pk), "sk", n(1), "payload", s(payload));
    }

    static void put(DynamoDbClient c, Map<String, AttributeValue> item) {
        c.putItem(b -> b.tableName(TABLE).item(item));
    }

    private static TestServer manual(TestServer.StoreKind kind, ManualClock clock) {
        return TestServer.start(kind, EngineSettings.DEFAULTS, clock);
    }

    @Test
    void recordsCarryDynamoDbsFields() {
        ManualClock clock = new ManualClock(START_MILLIS + 789);
        try (TestServer server = manual(TestServer.StoreKind.MEMORY, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server, "eu-west-1")) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.NEW_AND_OLD_IMAGES);
            put(c, item("a", "one"));
            c.updateItem(b -> b.tableName(TABLE)
                    .key(key("a"))
                    .updateExpression("SET payload = :p")
                    .expressionAttributeValues(Map.of(":p", s("two"))));
            c.deleteItem(b -> b.tableName(TABLE).key(key("a")));

            List<Record> records = StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE));
            assertThat(records)
                    .extracting(Record::eventName)
                    .containsExactly(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
            for (Record r : records) {
                assertThat(r.eventID()).matches("[0-9a-f]{32}");
                assertThat(r.eventVersion()).isEqualTo("1.1");
                assertThat(r.eventSource()).isEqualTo("aws:dynamodb");
                assertThat(r.awsRegion())
                        .as("the region of the GetRecords request")
                        .isEqualTo("eu-west-1");
                assertThat(r.userIdentity()).isNull();
                assertThat(r.dynamodb().approximateCreationDateTime())
                        .as("rounded down to the second")
                        .isEqualTo(Instant.ofEpochSecond(START_MILLIS / 1000));
                assertThat(r.dynamodb().keys()).isEqualTo(key("a"));
                assertThat(r.dynamodb().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
                assertThat(r.dynamodb().sequenceNumber()).hasSize(21);
            }
            assertThat(records)
                    .extracting(r -> r.dynamodb().sequenceNumber())
                    .isSorted()
                    .doesNotHaveDuplicates();
            assertThat(records).extracting(Record::eventID).doesNotHaveDuplicates();
            assertThat(records.get(0).dynamodb().newImage()).isEqualTo(item("a", "one"));
            assertThat(records.get(0).dynamodb().oldImage()).isEmpty();
            assertThat(records.get(1).dynamodb().oldImage()).isEqualTo(item("a", "one"));
            assertThat(records.get(1).dynamodb().newImage()).isEqualTo(item("a", "two"));
            assertThat(records.get(2).dynamodb().oldImage()).isEqualTo(item("a", "two"));
            assertThat(records.get(2).dynamodb().newImage()).isEmpty();
            // Keys pk "a" and sk 1: 3 + 4 bytes; each image adds payload "one"/"two": 10 bytes.
            assertThat(records).extracting(r -> r.dynamodb().sizeBytes()).containsExactly(7 + 17L, 7 + 34L, 7 + 17L);
        }
    }

    @Test
    void eachViewTypeCarriesItsImages() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            for (StreamViewType view : List.of(
                    StreamViewType.KEYS_ONLY,
                    StreamViewType.NEW_IMAGE,
                    StreamViewType.OLD_IMAGE,
                    StreamViewType.NEW_AND_OLD_IMAGES)) {
                String table = "view_" + view;
                createTable(c, table, view);
                c.putItem(b -> b.tableName(table).item(item("a", "1")));
                c.putItem(b -> b.tableName(table).item(item("a", "2")));
                c.deleteItem(b -> b.tableName(table).key(key("a")));
                List<Record> r = StreamsClients.all(streams, StreamsClients.streamArn(server, table));
                boolean keepsNew = view == StreamViewType.NEW_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;
                boolean keepsOld = view == StreamViewType.OLD_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;
                assertThat(r).hasSize(3).allSatisfy(x -> {
                    assertThat(x.dynamodb().streamViewType()).isEqualTo(view);
                    assertThat(x.dynamodb().keys()).isEqualTo(key("a"));
                });
                assertThat(r.get(0).dynamodb().newImage()).isEqualTo(keepsNew ? item("a", "1") : Map.of());
                assertThat(r.get(0).dynamodb().oldImage()).isEmpty();
                assertThat(r.get(1).dynamodb().newImage()).isEqualTo(keepsNew ? item("a", "2") : Map.of());
                assertThat(r.get(1).dynamodb().oldImage()).isEqualTo(keepsOld ? item("a", "1") : Map.of());
                assertThat(r.get(2).dynamodb().newImage()).isEmpty();
                assertThat(r.get(2).dynamodb().oldImage()).isEqualTo(keepsOld ? item("a", "2") : Map.of());
            }
        }
    }

    @Test
    void everyIteratorTypeStartsWhereItSays() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.KEYS_ONLY);
            put(c, item("a", "1"));
            put(c, item("b", "1"));
            String arn = StreamsClients.streamArn(server, TABLE);
            String shard = StreamsClients.shards(streams, arn).get(0).shardId();
            String latest = StreamsClients.iterator(streams, arn, shard, ShardIteratorType.LATEST);
            assertThat(streams.getRecords(b -> b.shardIterator(latest)).records())
                    .isEmpty();
            put(c, item("c", "1"));
            put(c, item("d", "1"));

            assertThat(pks(StreamsClients.drain(streams, latest))).containsExactly("c", "d");
            List<Record> all = StreamsClients.drain(
                    streams, StreamsClients.iterator(streams, arn, shard, ShardIteratorType.TRIM_HORIZON));
            assertThat(pks(all)).containsExactly("a", "b", "c", "d");
            String second = all.get(1).dynamodb().sequenceNumber();
            String at = streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId(shard)
                            .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                            .sequenceNumber(second))
                    .shardIterator();
            assertThat(pks(StreamsClients.drain(streams, at))).containsExactly("b", "c", "d");
            String after = streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId(shard)
                            .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                            .sequenceNumber(second))
                    .shardIterator();
            assertThat(pks(StreamsClients.drain(streams, after))).containsExactly("c", "d");
        }
    }

    public static List<String> pks(List<Record> records) {
        return records.stream().map(r -> r.dynamodb().keys().get("pk").s()).toList();
    }

    @Test
    void limitPagesAndAnOpenShardAlwaysHasANextIterator() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.KEYS_ONLY);
            for (int i = 0; i < 10; i++) {
                put(c, item("p" + i, "x"));
            }
            String arn = StreamsClients.streamArn(server, TABLE);
            String it = StreamsClients.iterator(
                    streams, arn, StreamsClients.shards(streams, arn).get(0).shardId(), ShardIteratorType.TRIM_HORIZON);
            List<Integer> pages = new java.util.ArrayList<>();
            List<String> seen = new java.util.ArrayList<>();
            for (int call = 0; call < 5; call++) {
                String current = it;
                GetRecordsResponse r =
                        streams.getRecords(b -> b.shardIterator(current).limit(3));
                pages.add(r.records().size());
                seen.addAll(pks(r.records()));
                assertThat(r.nextShardIterator()).isNotNull();
                it = r.nextShardIterator();
            }
            assertThat(pages).containsExactly(3, 3, 3, 1, 0);
            assertThat(seen).hasSize(10).doesNotHaveDuplicates();
            put(c, item("late", "x"));
            String current = it;
            assertThat(pks(streams.getRecords(b -> b.shardIterator(current)).records()))
                    .containsExactly("late");
        }
    }

    @Test
    void anIteratorExpiresFifteenMinutesAfterItWasHandedOut() {
        ManualClock clock = new ManualClock(START_MILLIS);
        try (TestServer server = manual(TestServer.StoreKind.MEMORY, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.KEYS_ONLY);
            put(c, item("a", "1"));
            String arn = StreamsClients.streamArn(server, TABLE);
            String shard = StreamsClients.shards(streams, arn).get(0).shardId();
            String it = StreamsClients.iterator(streams, arn, shard, ShardIteratorType.TRIM_HORIZON);
            clock.advanceSeconds(15 * 60);
            GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(it));
            assertThat(r.records()).hasSize(1);
            clock.advanceMillis(1);
            assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(it)))
                    .isInstanceOf(ExpiredIteratorException.class)
                    .hasMessageContaining("Iterator expired");
            clock.advanceSeconds(14 * 60);
            assertThat(streams.getRecords(b -> b.shardIterator(r.nextShardIterator()))
                            .records())
                    .as("the next iterator lives 15 minutes from when it was returned")
                    .isEmpty();
        }
    }

    @Test
    void recordsOlderThanADayAreTrimmed() {
        ManualClock clock = new ManualClock(START_MILLIS);
        try (TestServer server = manual(TestServer.StoreKind.MEMORY, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.KEYS_ONLY);
            put(c, item("old", "1"));
            String arn = StreamsClients.streamArn(server, TABLE);
            String shard = StreamsClients.shards(streams, arn).get(0).shardId();
            String first = StreamsClients.drain(
                            streams, StreamsClients.iterator(streams, arn, shard, ShardIteratorType.TRIM_HORIZON))
                    .get(0)
                    .dynamodb()
                    .sequenceNumber();
            clock.advanceSeconds(24 * 3600 - 60);
            String stale = StreamsClients.iterator(streams, arn, shard, ShardIteratorType.TRIM_HORIZON);
            clock.advanceSeconds(2 * 60);
            put(c, item("new", "1"));
            assertThat(server.engine().admin().trimStreams()).isEqualTo(1);

            assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(stale)))
                    .isInstanceOf(TrimmedDataAccessException.class);
            assertThatThrownBy(() -> streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId(shard)
                            .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                            .sequenceNumber(first)))
                    .isInstanceOf(TrimmedDataAccessException.class);
            assertThat(pks(StreamsClients.all(streams, arn))).containsExactly("new");
        }
    }

    @Test
    void noRecordForAWriteThatChangesNothing() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.NEW_AND_OLD_IMAGES);
            put(c, item("a", "1"));
            put(c, item("a", "1"));
            c.updateItem(b -> b.tableName(TABLE)
                    .key(key("a"))
                    .updateExpression("SET payload = :p")
                    .expressionAttributeValues(Map.of(":p", s("1"))));
            c.updateItem(b -> b.tableName(TABLE).key(key("b")).updateExpression("REMOVE payload"));
            c.deleteItem(b -> b.tableName(TABLE).key(key("missing")));
            assertThatThrownBy(() -> c.putItem(b ->
                            b.tableName(TABLE).item(item("a", "2")).conditionExpression("attribute_not_exists(pk)")))
                    .isInstanceOf(ConditionalCheckFailedException.class);
            c.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder()
                    .conditionCheck(k -> k.tableName(TABLE).key(key("a")).conditionExpression("attribute_exists(pk)"))
                    .build()));
            assertThat(StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE)))
                    .extracting(Record::eventName)
                    .containsExactly(OperationType.INSERT);
        }
    }

    @Test
    void anUpdateThatLeavesEveryValueAsItWasRecordsNothing() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.NEW_AND_OLD_IMAGES);
            Map<String, AttributeValue> start = new LinkedHashMap<>(item("a", "1"));
            start.put("n", AttributeValue.builder().n("10").build());
            start.put("tags", AttributeValue.builder().ss("x", "y").build());
            start.put("m", AttributeValue.builder().m(Map.of("deep", s("d"))).build());
            put(c, start);
            // Each writes values equal to those the item holds, or removes an attribute it lacks:
            // the item does not change, and DynamoDB writes no record for such a write.
            Map<String, AttributeValue> reordered = new LinkedHashMap<>();
            List<String> names = new ArrayList<>(start.keySet());
            Collections.reverse(names);
            names.forEach(name -> reordered.put(name, start.get(name)));
            put(c, reordered);
            update(
                    c,
                    "SET n = :v",
                    Map.of(":v", AttributeValue.builder().n("10.0").build()));
            update(
                    c,
                    "SET tags = :v",
                    Map.of(":v", AttributeValue.builder().ss("y", "x").build()));
            update(c, "SET m.deep = :v, payload = :p", Map.of(":v", s("d"), ":p", s("1")));
            update(c, "ADD n :zero", Map.of(":zero", n(0)));
            update(c, "REMOVE absent", Map.of());
            // Each of these changes it.
            update(c, "SET n = :v", Map.of(":v", n(11)));
            update(
                    c,
                    "SET tags = :v",
                    Map.of(":v", AttributeValue.builder().ss("z", "x").build()));
            update(c, "REMOVE tags", Map.of());
            update(c, "SET added = :v, payload = :p", Map.of(":v", s("new"), ":p", s("1")));
            List<Record> r = StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE));
            assertThat(r)
                    .extracting(Record::eventName)
                    .containsExactly(
                            OperationType.INSERT,
                            OperationType.MODIFY,
                            OperationType.MODIFY,
                            OperationType.MODIFY,
                            OperationType.MODIFY);
            assertThat(r.get(1).dynamodb().newImage().get("n").n()).isEqualTo("11");
            assertThat(r.get(2).dynamodb().newImage().get("tags").ss()).containsExactlyInAnyOrder("x", "z");
            assertThat(r.get(2).dynamodb().oldImage().get("tags").ss()).containsExactlyInAnyOrder("x", "y");
            assertThat(r.get(3).dynamodb().newImage()).doesNotContainKey("tags");
            assertThat(r.get(4).dynamodb().newImage().get("added").s()).isEqualTo("new");
        }
    }

    private static void update(DynamoDbClient c, String expression, Map<String, AttributeValue> values) {
        c.updateItem(b -> b.tableName(TABLE)
                .key(key("a"))
                .updateExpression(expression)
                .expressionAttributeValues(values.isEmpty() ? null : values));
    }

    @Test
    void batchWritesAndTransactionsRecordEachItem() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.NEW_IMAGE);
            put(c, item("gone", "1"));
            c.batchWriteItem(b -> b.requestItems(Map.of(
                    TABLE,
                    List.of(
                            WriteRequest.builder()
                                    .putRequest(p -> p.item(item("b1", "1")))
                                    .build(),
                            WriteRequest.builder()
                                    .putRequest(p -> p.item(item("b2", "1")))
                                    .build(),
                            WriteRequest.builder()
                                    .deleteRequest(d -> d.key(key("gone")))
                                    .build()))));
            c.transactWriteItems(b -> b.transactItems(
                    TransactWriteItem.builder()
                            .put(p -> p.tableName(TABLE).item(item("t1", "1")))
                            .build(),
                    TransactWriteItem.builder()
                            .update(u -> u.tableName(TABLE)
                                    .key(key("b1"))
                                    .updateExpression("SET payload = :p")
                                    .expressionAttributeValues(Map.of(":p", s("2"))))
                            .build(),
                    TransactWriteItem.builder()
                            .delete(d -> d.tableName(TABLE).key(key("b2")))
                            .build()));
            List<Record> r = StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE));
            assertThat(r)
                    .extracting(x ->
                            x.eventName() + " " + x.dynamodb().keys().get("pk").s())
                    .containsExactly(
                            "INSERT gone",
                            "INSERT b1",
                            "INSERT b2",
                            "REMOVE gone",
                            "INSERT t1",
                            "MODIFY b1",
                            "REMOVE b2");
            assertThat(r.get(5).dynamodb().newImage()).isEqualTo(item("b1", "2"));
        }
    }

    @Test
    void eachItemsRecordsFollowItsWritesWhileWritersRunConcurrently() throws Exception {
        int threads = 4;
        int itemsPerThread = 5;
        int updatesPerItem = 20;
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.NEW_IMAGE);
            List<Thread> workers = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                Thread w = new Thread(() -> {
                    for (int u = 0; u < updatesPerItem; u++) {
                        for (int i = 0; i < itemsPerThread; i++) {
                            String pk = "t" + thread + "i" + i;
                            c.updateItem(b -> b.tableName(TABLE)
                                    .key(key(pk))
                                    .updateExpression("ADD n :one")
                                    .expressionAttributeValues(Map.of(":one", n(1))));
                        }
                    }
                });
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
            List<Record> r = StreamsClients.all(streams, StreamsClients.streamArn(server, TABLE));
            assertThat(r).hasSize(threads * itemsPerThread * updatesPerItem);
            Map<String, List<Integer>> byItem = new java.util.TreeMap<>();
            for (Record x : r) {
                byItem.computeIfAbsent(x.dynamodb().keys().get("pk").s(), k -> new java.util.ArrayList<>())
                        .add(Integer.parseInt(x.dynamodb().newImage().get("n").n()));
            }
            List<Integer> expected = java.util.stream.IntStream.rangeClosed(1, updatesPerItem)
                    .boxed()
                    .toList();
            assertThat(byItem)
                    .hasSize(threads * itemsPerThread)
                    .allSatisfy((pk, values) -> assertThat(values).as(pk).isEqualTo(expected));
        }
    }

    @Test
    void aNewStreamAfterDisableAndEnableWhileTheOldOneStaysReadable() {
        ManualClock clock = new ManualClock(START_MILLIS);
        try (TestServer server = manual(TestServer.StoreKind.MEMORY, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.KEYS_ONLY);
            String tableArn = c.describeTable(b -> b.tableName(TABLE)).table().tableArn();
            String first = StreamsClients.streamArn(server, TABLE);
            assertThat(first).startsWith(tableArn + "/stream/");
            put(c, item("a", "1"));
            c.updateTable(b -> b.tableName(TABLE).streamSpecification(v -> v.streamEnabled(false)));
            put(c, item("while-disabled", "1"));
            c.updateTable(b -> b.tableName(TABLE)
                    .streamSpecification(v -> v.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
            put(c, item("b", "1"));
            String second = StreamsClients.streamArn(server, TABLE);
            assertThat(second)
                    .as("same clock millisecond, still a new label")
                    .isNotEqualTo(first)
                    .startsWith(tableArn + "/stream/");

            StreamDescription old =
                    streams.describeStream(b -> b.streamArn(first)).streamDescription();
            assertThat(old.streamStatus()).isEqualTo(StreamStatus.DISABLED);
            assertThat(old.streamViewType()).isEqualTo(StreamViewType.KEYS_ONLY);
            assertThat(old.shards()).hasSize(1);
            assertThat(old.shards().get(0).sequenceNumberRange().endingSequenceNumber())
                    .isNotNull();
            String oldIt = StreamsClients.iterator(
                    streams, first, old.shards().get(0).shardId(), ShardIteratorType.TRIM_HORIZON);
            GetRecordsResponse oldRecords = streams.getRecords(b -> b.shardIterator(oldIt));
            assertThat(pks(oldRecords.records())).containsExactly("a");
            assertThat(oldRecords.nextShardIterator())
                    .as("a closed shard read to its end")
                    .isNull();

            StreamDescription now =
                    streams.describeStream(b -> b.streamArn(second)).streamDescription();
            assertThat(now.streamStatus()).isEqualTo(StreamStatus.ENABLED);
            assertThat(now.streamViewType()).isEqualTo(StreamViewType.NEW_IMAGE);
            assertThat(pks(StreamsClients.all(streams, second))).containsExactly("b");
            assertThat(streams.listStreams(b -> b.tableName(TABLE)).streams())
                    .extracting(x -> x.streamArn())
                    .containsExactly(first, second);

            clock.advanceSeconds(24 * 3600 + 1);
            assertThat(streams.listStreams(b -> b.tableName(TABLE)).streams())
                    .as("a disabled stream is listed for 24 hours")
                    .extracting(x -> x.streamArn())
                    .containsExactly(second);
            assertThatThrownBy(() -> streams.describeStream(b -> b.streamArn(first)))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageContaining("Requested resource not found: Stream: " + first + " not found");
        }
    }

    @Test
    void shardsRollOverEveryFourHoursWithTheirLineage() {
        ManualClock clock = new ManualClock(START_MILLIS);
        try (TestServer server = manual(TestServer.StoreKind.MEMORY, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.KEYS_ONLY);
            String arn = StreamsClients.streamArn(server, TABLE);
            put(c, item("a", "1"));
            String firstShard = StreamsClients.shards(streams, arn).get(0).shardId();
            clock.advanceSeconds(4 * 3600);
            List<Shard> shards = StreamsClients.shards(streams, arn);
            assertThat(shards).hasSize(2);
            put(c, item("b", "1"));
            clock.advanceSeconds(4 * 3600);
            put(c, item("c", "1"));
            shards = StreamsClients.shards(streams, arn);
            assertThat(shards).hasSize(3);
            assertThat(shards.get(0).shardId()).isEqualTo(firstShard);
            assertThat(shards.get(0).parentShardId()).isNull();
            assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
            assertThat(shards.get(2).parentShardId()).isEqualTo(shards.get(1).shardId());
            assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber())
                    .isNotNull();
            assertThat(shards.get(2).sequenceNumberRange().endingSequenceNumber())
                    .isNull();
            assertThat(shards).extracting(Shard::shardId).isSorted();

            String open = StreamsClients.iterator(streams, arn, firstShard, ShardIteratorType.TRIM_HORIZON);
            GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(open));
            assertThat(pks(r.records())).containsExactly("a");
            assertThat(r.nextShardIterator())
                    .as("the first shard is closed now")
                    .isNull();
            assertThat(pks(StreamsClients.all(streams, arn))).containsExactly("a", "b", "c");

            StreamDescription page =
                    streams.describeStream(b -> b.streamArn(arn).limit(2)).streamDescription();
            assertThat(page.shards()).hasSize(2);
            assertThat(page.lastEvaluatedShardId()).isEqualTo(shards.get(1).shardId());
            StreamDescription rest = streams.describeStream(
                            b -> b.streamArn(arn).limit(2).exclusiveStartShardId(page.lastEvaluatedShardId()))
                    .streamDescription();
            assertThat(rest.shards())
                    .extracting(Shard::shardId)
                    .containsExactly(shards.get(2).shardId());
            assertThat(rest.lastEvaluatedShardId()).isNull();
            StreamDescription children = streams.describeStream(b -> b.streamArn(arn)
                            .shardFilter(f -> f.type("CHILD_SHARDS").shardId(firstShard)))
                    .streamDescription();
            assertThat(children.shards())
                    .extracting(Shard::shardId)
                    .containsExactly(shards.get(1).shardId());
        }
    }

    @Test
    void describeStreamAnswersTheStreamsShape() {
        ManualClock clock = new ManualClock(START_MILLIS);
        try (TestServer server = manual(TestServer.StoreKind.MEMORY, clock);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            createTable(server.client(), TABLE, StreamViewType.OLD_IMAGE);
            String arn = StreamsClients.streamArn(server, TABLE);
            StreamDescription d = streams.describeStream(b -> b.streamArn(arn)).streamDescription();
            assertThat(d.streamArn()).isEqualTo(arn);
            assertThat(d.streamLabel()).isEqualTo("2023-11-14T22:13:20.000");
            assertThat(arn).endsWith("/stream/" + d.streamLabel());
            assertThat(d.tableName()).isEqualTo(TABLE);
            assertThat(d.creationRequestDateTime()).isEqualTo(Instant.ofEpochMilli(START_MILLIS));
            assertThat(d.keySchema())
                    .extracting(k -> k.attributeName() + " " + k.keyType())
                    .containsExactly("pk HASH", "sk RANGE");
            assertThat(d.shards()).hasSize(1);
            assertThat(d.shards().get(0).shardId()).matches("shardId-\\d{20}-[0-9a-f]{8}");
            assertThat(d.shards().get(0).sequenceNumberRange().startingSequenceNumber())
                    .hasSize(21);
            assertThat(streams.listStreams().streams()).singleElement().satisfies(s -> {
                assertThat(s.streamArn()).isEqualTo(arn);
                assertThat(s.tableName()).isEqualTo(TABLE);
                assertThat(s.streamLabel()).isEqualTo(d.streamLabel());
            });
        }
    }

    @Test
    void unknownStreamsAndShardsAreNotFound() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            createTable(server.client(), TABLE, StreamViewType.KEYS_ONLY);
            String arn = StreamsClients.streamArn(server, TABLE);
            String missing = arn.replace("/stream/", "x/stream/");
            assertThatThrownBy(() -> streams.describeStream(b -> b.streamArn(missing)))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageContaining("Requested resource not found: Stream: " + missing + " not found");
            assertThatThrownBy(() -> streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId("shardId-00000000000000000000-00000000")
                            .shardIteratorType(ShardIteratorType.LATEST)))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageContaining("Requested resource not found: Shard does not exist");
        }
    }

    @Test
    void aRestartInTheMiddleLosesAndRepeatsNothing() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.ROCKSDB)) {
            DynamoDbClient c = server.client();
            createTable(c, TABLE, StreamViewType.NEW_IMAGE);
            String arn = StreamsClients.streamArn(server, TABLE);
            String it;
            List<String> seen = new java.util.ArrayList<>();
            try (DynamoDbStreamsClient streams = StreamsClients.of(server)) {
                for (int i = 0; i < 5; i++) {
                    put(c, item("before" + i, "x"));
                }
                String start = StreamsClients.iterator(
                        streams,
                        arn,
                        StreamsClients.shards(streams, arn).get(0).shardId(),
                        ShardIteratorType.TRIM_HORIZON);
                GetRecordsResponse r =
                        streams.getRecords(b -> b.shardIterator(start).limit(3));
                seen.addAll(pks(r.records()));
                it = r.nextShardIterator();
            }
            server.restart();
            c = server.client();
            for (int i = 0; i < 5; i++) {
                put(c, item("after" + i, "x"));
            }
            try (DynamoDbStreamsClient streams = StreamsClients.of(server)) {
                seen.addAll(pks(StreamsClients.drain(streams, it)));
                assertThat(seen)
                        .containsExactly(
                                "before0", "before1", "before2", "before3", "before4", "after0", "after1", "after2",
                                "after3", "after4");
                List<Record> all = StreamsClients.all(streams, arn);
                assertThat(all).hasSize(10);
                assertThat(all)
                        .extracting(x -> x.dynamodb().sequenceNumber())
                        .isSorted()
                        .doesNotHaveDuplicates();
                assertThat(all).extracting(Record::eventID).doesNotHaveDuplicates();
            }
        }
    }
}
