package dev.kumiko.engine.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.CountingStore;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.EngineInternals;
import dev.kumiko.engine.SharedStore;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.ProjectionInput;
import dev.kumiko.engine.control.CreateTableRequest.StreamInput;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.error.ItemCollectionSizeLimitExceeded;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The change log inside the engine: what is recorded, in which batch, numbered how. */
class ChangeLogTest {
    private static final RequestContext CTX = new RequestContext("us-east-1");

    private static void createTable(Engine engine, String name, String viewType) {
        createTable(engine, name, viewType, false);
    }

    private static void createTable(Engine engine, String name, String viewType, boolean lsi) {
        List<AttributeDefinitionInput> attributes = List.of(
                new AttributeDefinitionInput("pk", ScalarAttributeType.S),
                new AttributeDefinitionInput("sk", ScalarAttributeType.S),
                new AttributeDefinitionInput("g", ScalarAttributeType.S));
        List<KeySchemaInput> key =
                List.of(new KeySchemaInput("pk", KeyType.HASH), new KeySchemaInput("sk", KeyType.RANGE));
        List<IndexInput> lsis = !lsi
                ? null
                : List.of(new IndexInput(
                        "byG",
                        List.of(new KeySchemaInput("pk", KeyType.HASH), new KeySchemaInput("g", KeyType.RANGE)),
                        new ProjectionInput(ProjectionType.ALL, null),
                        null));
        engine.control()
                .createTable(
                        CTX,
                        new CreateTableRequest(
                                name,
                                lsi ? attributes : attributes.subList(0, 2),
                                key,
                                lsis,
                                null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                viewType == null ? null : new StreamInput(true, StreamViewType.valueOf(viewType)),
                                null,
                                null,
                                null,
                                null));
    }

    private static Map<String, AttributeValue> item(String pk, String payload) {
        return Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s("1"), "payload", AttributeValue.s(payload));
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s("1"));
    }

    private static void put(Engine e, String table, Map<String, AttributeValue> item) {
        e.items().putItem(new ItemRequests.PutItem(table, item, null, null, null, null, ItemRequests.Conditions.NONE));
    }

    private static void delete(Engine e, String table, String pk) {
        e.items()
                .deleteItem(new ItemRequests.DeleteItem(
                        table, key(pk), null, null, null, null, ItemRequests.Conditions.NONE));
    }

    private static void update(
            Engine e, String table, String pk, String expression, Map<String, AttributeValue> values) {
        e.items()
                .updateItem(new ItemRequests.UpdateItem(
                        table,
                        key(pk),
                        expression,
                        null,
                        null,
                        null,
                        null,
                        null,
                        new ItemRequests.Conditions(null, null, values, null, null)));
    }

    private static List<ChangeRecord> records(Engine e, String table) {
        TableDescriptor d = EngineInternals.catalog(e).get(table).descriptor();
        return EngineInternals.changeLog(e)
                .read(d.id(), 1, EngineInternals.changeLog(e).visibleBound(d), 1000, Long.MAX_VALUE)
                .records();
    }

    @Test
    void everyChangeIsRecordedOnceInOrderAndNoOpsAreNot() {
        try (Engine e = Engine.inMemory()) {
            createTable(e, "tbl", "NEW_AND_OLD_IMAGES");
            put(e, "tbl", item("a", "1"));
            put(e, "tbl", item("a", "1")); // same item: nothing
            update(e, "tbl", "a", "SET payload = :p", Map.of(":p", AttributeValue.s("1"))); // same value: nothing
            update(e, "tbl", "a", "SET payload = :p", Map.of(":p", AttributeValue.s("2")));
            update(e, "tbl", "b", "REMOVE payload", null); // creates nothing: nothing
            delete(e, "tbl", "zzz"); // missing: nothing
            delete(e, "tbl", "a");
            List<ChangeRecord> r = records(e, "tbl");
            assertThat(r)
                    .extracting(ChangeRecord::eventName)
                    .containsExactly(
                            ChangeRecord.EventName.INSERT,
                            ChangeRecord.EventName.MODIFY,
                            ChangeRecord.EventName.REMOVE);
            assertThat(r).extracting(ChangeRecord::sequence).containsExactly(1L, 2L, 3L);
            assertThat(r.get(0).oldImage()).isNull();
            assertThat(r.get(0).newImage()).isEqualTo(item("a", "1"));
            assertThat(r.get(1).oldImage()).isEqualTo(item("a", "1"));
            assertThat(r.get(1).newImage()).isEqualTo(item("a", "2"));
            assertThat(r.get(2).newImage()).isNull();
            assertThat(r.get(2).oldImage()).isEqualTo(item("a", "2"));
            assertThat(r).allSatisfy(x -> {
                assertThat(x.keys()).isEqualTo(key("a"));
                assertThat(x.origin()).isEqualTo(ChangeOrigin.CLIENT);
            });
        }
    }

    @Test
    void setsInAnotherOrderAndNumbersWrittenDifferentlyAreNoChange() {
        try (Engine e = Engine.inMemory()) {
            createTable(e, "tbl", "KEYS_ONLY");
            put(
                    e,
                    "tbl",
                    Map.of(
                            "pk",
                            AttributeValue.s("a"),
                            "sk",
                            AttributeValue.s("1"),
                            "tags",
                            new AttributeValue.SS(List.of("x", "y")),
                            "n",
                            AttributeValue.n("1.0")));
            put(
                    e,
                    "tbl",
                    Map.of(
                            "n",
                            AttributeValue.n("1"),
                            "tags",
                            new AttributeValue.SS(List.of("y", "x")),
                            "sk",
                            AttributeValue.s("1"),
                            "pk",
                            AttributeValue.s("a")));
            assertThat(records(e, "tbl")).hasSize(1);
        }
    }

    @Test
    void eachViewTypeKeepsOnlyItsImages() {
        try (Engine e = Engine.inMemory()) {
            for (ChangeRecord.ViewType view : ChangeRecord.ViewType.values()) {
                String table = "t_" + view;
                createTable(e, table, view.name());
                put(e, table, item("a", "1"));
                put(e, table, item("a", "2"));
                List<ChangeRecord> r = records(e, table);
                assertThat(r).hasSize(2);
                ChangeRecord modify = r.get(1);
                assertThat(modify.viewType()).isEqualTo(view);
                assertThat(modify.newImage() != null).as(view + " new").isEqualTo(view.keepsNew());
                assertThat(modify.oldImage() != null).as(view + " old").isEqualTo(view.keepsOld());
                assertThat(modify.sizeBytes()).isEqualTo(6 + (view.keepsNew() ? 14 : 0) + (view.keepsOld() ? 14 : 0));
            }
        }
    }

    @Test
    void aTableWithoutAStreamRecordsNothing() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine e = Engine.open(store)) {
            createTable(e, "plain", null);
            put(e, "plain", item("a", "1"));
            delete(e, "plain", "a");
            TableDescriptor d = EngineInternals.catalog(e).get("plain").descriptor();
            assertThat(EngineInternals.changeLog(e)
                            .read(d.id(), 1, Long.MAX_VALUE, 10, Long.MAX_VALUE)
                            .records())
                    .isEmpty();
        }
    }

    @Test
    void aTransactionsRecordsAreInItsOneBatch() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine e = Engine.open(store)) {
            createTable(e, "tbl", "NEW_IMAGE");
            put(e, "tbl", item("first", "1")); // reserves the table's first block of numbers
            store.reset();
            e.transactions()
                    .transactWriteItems(new TransactRequests.TransactWrite(
                            List.of(
                                    txPut("tbl", item("a", "1")),
                                    txPut("tbl", item("b", "1")),
                                    txPut("tbl", item("c", "1"))),
                            null,
                            null,
                            null));
            assertThat(store.batches.get()).isEqualTo(1);
            assertThat(records(e, "tbl"))
                    .extracting(x -> x.keys().get("pk"))
                    .containsExactly(
                            AttributeValue.s("first"),
                            AttributeValue.s("a"),
                            AttributeValue.s("b"),
                            AttributeValue.s("c"));
        }
    }

    private static TransactRequests.WriteAction txPut(String table, Map<String, AttributeValue> item) {
        return new TransactRequests.WriteAction(
                1, TransactRequests.Kind.PUT, table, item, null, null, null, null, null, null);
    }

    @Test
    void aWriteThatFailsLeavesAGapAndReleasesItsNumber() {
        try (Engine e = Engine.open(new MemoryStore(), Clock.SYSTEM, new EngineSettings(100))) {
            createTable(e, "tbl", "KEYS_ONLY", true);
            put(e, "tbl", Map.of("pk", AttributeValue.s("a"), "sk", AttributeValue.s("1")));
            Throwable t = catchThrowable(() -> put(
                    e,
                    "tbl",
                    Map.of(
                            "pk",
                            AttributeValue.s("a"),
                            "sk",
                            AttributeValue.s("2"),
                            "big",
                            AttributeValue.s("x".repeat(200)))));
            assertThat(t).isInstanceOf(ItemCollectionSizeLimitExceeded.class);
            put(e, "tbl", Map.of("pk", AttributeValue.s("b"), "sk", AttributeValue.s("1")));
            assertThat(records(e, "tbl")).extracting(ChangeRecord::sequence).containsExactly(1L, 3L);
            TableDescriptor d = EngineInternals.catalog(e).get("tbl").descriptor();
            assertThat(EngineInternals.changeLog(e).visibleBound(d)).isEqualTo(4);
            assertThat(EngineInternals.changeLog(e).latest(d)).isEqualTo(4);
        }
    }

    /**
     * A local store's cache hands out numbers from blocks reserved in the store first: every number
     * handed out is below the stored counter, and the store is written once per block.
     */
    @Test
    void theLocalCacheReservesABlockInTheStoreBeforeUsingIt() {
        long[] stored = {5};
        java.util.List<Long> reservations = new java.util.ArrayList<>();
        TableSequence s = new TableSequence(5, 4, stored[0], below -> {
            stored[0] = below;
            reservations.add(below);
        });
        long numbers = 2 * SequenceCounter.BLOCK_NUMBERS + 1;
        for (long i = 0; i < numbers; i++) {
            long n = s.allocate();
            assertThat(n).isEqualTo(5 + i).isLessThan(stored[0]);
            s.finish(n, true);
        }
        assertThat(reservations).hasSize(3);
    }

    @Test
    void aReaderNeverReadsPastANumberStillInFlight() {
        TableSequence s = new TableSequence(1, 0, 0, below -> {});
        long a = s.allocate();
        long b = s.allocate();
        s.finish(b, true);
        assertThat(s.visibleBound()).as("b landed before a").isEqualTo(a);
        assertThat(s.latest()).isEqualTo(a);
        s.finish(a, true);
        assertThat(s.visibleBound()).isEqualTo(3);
        assertThat(s.latest()).isEqualTo(3);
        long c = s.allocate();
        s.finish(c, false);
        assertThat(s.visibleBound()).isEqualTo(4);
        assertThat(s.latest()).as("never past the newest record").isEqualTo(3);
    }

    /**
     * A reader polling while writers of different items commit out of number order gets every
     * record exactly once: it never reads past a number still in flight.
     */
    @Tag("slow")
    @Test
    void aReaderPollingDuringConcurrentWritesMissesNothing() throws Exception {
        int writers = 4;
        int writesEach = 500;
        try (Engine e = Engine.inMemory()) {
            createTable(e, "tbl", "KEYS_ONLY");
            RequestContext ctx = CTX;
            String arn = e.control().describeTable(ctx, "tbl").tableArn() + "/stream/"
                    + EngineInternals.catalog(e).get("tbl").descriptor().stream()
                            .label();
            String shard = e.streams()
                    .describeStream(
                            ctx, new dev.kumiko.engine.streams.StreamRequests.DescribeStream(arn, null, null, null))
                    .shards()
                    .get(0)
                    .shardId();
            String iterator = e.streams()
                    .getShardIterator(
                            ctx,
                            new dev.kumiko.engine.streams.StreamRequests.GetShardIterator(
                                    arn,
                                    shard,
                                    dev.kumiko.engine.streams.StreamRequests.ShardIteratorType.TRIM_HORIZON,
                                    null));
            List<Thread> threads = new java.util.ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    for (int i = 0; i < writesEach; i++) {
                        put(e, "tbl", item("w" + writer + "-" + i, "x"));
                    }
                });
                threads.add(t);
                t.start();
            }
            List<Long> seen = new java.util.ArrayList<>();
            while (threads.stream().anyMatch(Thread::isAlive) || seen.size() < writers * writesEach) {
                var page = e.streams()
                        .getRecords(ctx, new dev.kumiko.engine.streams.StreamRequests.GetRecords(iterator, 100L));
                page.records().forEach(r -> seen.add(r.change().sequence()));
                iterator = page.nextShardIterator();
                if (page.records().isEmpty() && threads.stream().noneMatch(Thread::isAlive)) {
                    break;
                }
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(seen)
                    .hasSize(writers * writesEach)
                    .doesNotHaveDuplicates()
                    .isSorted();
            assertThat(seen)
                    .as("every number from 1, none skipped")
                    .isEqualTo(java.util.stream.LongStream.rangeClosed(1, (long) writers * writesEach)
                            .boxed()
                            .toList());
        }
    }

    @Test
    void numbersContinueAfterARestartAndAfterEverythingWasTrimmed() {
        AtomicLong now = new AtomicLong(1_000_000_000_000L);
        // A store that outlives each engine, so the next engine opens the same data: a restart.
        Store store = new SharedStore(new MemoryStore());
        int tableId;
        try (Engine e = Engine.open(store, now::get)) {
            createTable(e, "tbl", "KEYS_ONLY");
            put(e, "tbl", item("a", "1"));
            put(e, "tbl", item("b", "1"));
            tableId = EngineInternals.catalog(e).get("tbl").descriptor().id();
        }
        try (Engine e = Engine.open(store, now::get)) {
            put(e, "tbl", item("c", "1"));
            assertThat(records(e, "tbl")).extracting(ChangeRecord::sequence).containsExactly(1L, 2L, 3L);
            now.addAndGet(ChangeLogTrimmer.RETENTION_MILLIS);
            put(e, "tbl", item("d", "1"));
            now.addAndGet(1);
            ChangeLogTrimmer trimmer = new ChangeLogTrimmer(
                    EngineInternals.catalog(e),
                    EngineInternals.changeLog(e),
                    now::get,
                    new dev.kumiko.engine.background.Lease(store, "trim-test", "me", now::get));
            assertThat(trimmer.trimNow()).isEqualTo(3);
            assertThat(records(e, "tbl")).extracting(ChangeRecord::sequence).containsExactly(4L);
            assertThat(EngineInternals.changeLog(e).trimmedBelow(tableId)).isEqualTo(4);
            now.addAndGet(ChangeLogTrimmer.RETENTION_MILLIS);
            assertThat(trimmer.trimNow()).isEqualTo(1);
            assertThat(records(e, "tbl")).isEmpty();
        }
        try (Engine e = Engine.open(store, now::get)) {
            put(e, "tbl", item("e", "1"));
            assertThat(records(e, "tbl")).extracting(ChangeRecord::sequence).containsExactly(5L);
        }
    }
}
