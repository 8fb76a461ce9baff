package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.failure.ConditionalCheckFailed;
import dev.kumiko.engine.failure.TransactionCanceled;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.ttl.TimeToLiveRequests;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two engines over one store behave as one DynamoDB: the store owns isolation, counters and the
 * catalog, so nothing that correctness needs lives in only one engine. A backend's test extends
 * this class and supplies the store; both engines run in this JVM, each with its own catalog
 * mirror, change log state and background tasks, exactly as two server processes would.
 */
public abstract class TwoEnginesContract {
    static final RequestContext CTX = new RequestContext("us-east-1");
    /** Writer threads per engine, and conditional increments per thread. */
    static final int THREADS_PER_ENGINE = 2;

    static final int INCREMENTS_PER_THREAD = 100;
    /** New items each writer thread puts into one table. */
    static final int PUTS_PER_THREAD = 100;

    static final int ACCOUNTS = 8;
    static final long OPENING_BALANCE = 100;
    static final int TRANSFERS_PER_THREAD = 100;
    static final long WAIT_SECONDS_MAX = 120;
    static final long NOW_MILLIS = 1_700_000_000_000L;

    private Store store;
    protected Engine one;
    protected Engine two;

    /** A new, empty store, shared by both engines; the contract closes it. */
    protected abstract Store newStore();

    /** One engine's handle on the shared store. */
    protected Store handle(Store shared) {
        return new SharedStore(shared);
    }

    @BeforeEach
    void openEngines() {
        store = newStore();
        EngineSettings settings = EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0);
        Clock clock = () -> NOW_MILLIS;
        one = Engine.open(handle(store), clock, settings);
        two = Engine.open(handle(store), clock, settings);
    }

    @AfterEach
    void closeEngines() {
        one.close();
        two.close();
        store.close();
    }

    @Test
    @Timeout(180)
    void conditionalWritesFromBothNeverLoseAnUpdate() throws Exception {
        createTable(one, "counter");
        put(one, "counter", Map.of("pk", s("c"), "n", AttributeValue.n(0)));
        runOnBoth(engine -> {
            for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                incrementConditionally(engine);
            }
        });
        assertThat(number(get(two, "counter", "c"), "n")).isEqualTo(2L * THREADS_PER_ENGINE * INCREMENTS_PER_THREAD);
    }

    /** Read n, write n + 1 only if n is still what was read; on a lost race read again. */
    private static void incrementConditionally(Engine engine) {
        while (true) {
            long n = number(get(engine, "counter", "c"), "n");
            try {
                engine.items()
                        .updateItem(new ItemRequests.UpdateItem(
                                "counter",
                                Map.of("pk", s("c")),
                                "SET n = :next",
                                null,
                                null,
                                null,
                                null,
                                null,
                                new ItemRequests.Conditions(
                                        "n = :seen",
                                        null,
                                        Map.of(":seen", AttributeValue.n(n), ":next", AttributeValue.n(n + 1)),
                                        null,
                                        null)));
                return;
            } catch (ConditionalCheckFailed lostTheRace) {
                // Another writer got there first.
            }
        }
    }

    @Test
    @Timeout(180)
    void bankTransfersFromBothKeepTheTotal() throws Exception {
        createTable(one, "bank");
        for (int a = 0; a < ACCOUNTS; a++) {
            put(one, "bank", Map.of("pk", s("acct" + a), "balance", AttributeValue.n(OPENING_BALANCE)));
        }
        AtomicLong committed = new AtomicLong();
        runOnBoth(engine -> {
            for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
                if (transfer(engine)) {
                    committed.incrementAndGet();
                }
            }
        });
        long total = 0;
        for (int a = 0; a < ACCOUNTS; a++) {
            long balance = number(get(two, "bank", "acct" + a), "balance");
            assertThat(balance).as("acct" + a).isNotNegative();
            total += balance;
        }
        assertThat(total).isEqualTo(ACCOUNTS * OPENING_BALANCE);
        assertThat(committed.get()).as("some transfers went through").isPositive();
    }

    /** Moves a random amount between two random accounts if the source covers it. */
    private static boolean transfer(Engine engine) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        AttributeValue amount = AttributeValue.n(1 + random.nextInt(30));
        try {
            engine.transactions()
                    .transactWriteItems(new TransactRequests.TransactWrite(
                            List.of(
                                    move(
                                            "acct" + from,
                                            "balance >= :amount",
                                            "SET balance = balance - :amount",
                                            amount),
                                    move("acct" + to, null, "SET balance = balance + :amount", amount)),
                            null,
                            null,
                            null));
            return true;
        } catch (TransactionCanceled conflictOrShortOfFunds) {
            return false;
        }
    }

    private static TransactRequests.WriteAction move(
            String account, String condition, String update, AttributeValue amount) {
        return new TransactRequests.WriteAction(
                1,
                TransactRequests.Kind.UPDATE,
                "bank",
                null,
                Map.of("pk", s(account)),
                condition,
                update,
                null,
                Map.of(":amount", amount),
                null);
    }

    @Test
    void aTableCreatedOnOneIsUsableOnTheOtherAndItsCountsAreShared() throws Exception {
        createTable(one, "made-on-one");
        put(two, "made-on-one", Map.of("pk", s("a"), "v", s("from two")));
        put(one, "made-on-one", Map.of("pk", s("b"), "v", s("from one")));
        assertThat(get(one, "made-on-one", "a")).containsEntry("v", s("from two"));
        assertItemCount(two, "made-on-one", 2);
        assertItemCount(one, "made-on-one", 2);
        assertThatThrownBy(() -> createTable(two, "made-on-one"))
                .isInstanceOf(DynamoException.class)
                .hasMessageContaining("made-on-one");
    }

    /**
     * Every put of a new item adds to the table's item count and size in its own commit: many
     * writers of one table, from both engines, all add to the same two counters, and once their
     * writes have returned both engines count every item.
     */
    @Test
    @Timeout(180)
    void itemCountsOfConcurrentPutsFromBothAreExact() throws Exception {
        createTable(one, "counted");
        AtomicInteger writer = new AtomicInteger();
        runOnBoth(engine -> {
            int w = writer.getAndIncrement();
            for (int i = 0; i < PUTS_PER_THREAD; i++) {
                put(engine, "counted", Map.of("pk", s(w + "-" + i), "v", s("x".repeat(i % 7))));
            }
        });
        long items = 2L * THREADS_PER_ENGINE * PUTS_PER_THREAD;
        assertItemCount(one, "counted", items);
        assertItemCount(two, "counted", items);
    }

    @Test
    void aTableDeletedOnOneIsGoneOnTheOther() throws Exception {
        createTable(one, "short-lived");
        put(two, "short-lived", Map.of("pk", s("a")));
        one.control().deleteTable(CTX, "short-lived");
        two.catalog().refresh();
        assertThatThrownBy(() -> get(two, "short-lived", "a"))
                .isInstanceOf(DynamoException.class)
                .hasMessageContaining("not found");
    }

    /**
     * Over a local store, a write on the other engine right after a DeleteTable (before its catalog
     * mirror refreshed) finds no table. A store shared by processes has a window up to the catalog
     * watch's interval instead (docs/architecture.md), so the check applies to local stores.
     */
    @Test
    void aWriteRightAfterADeleteOnTheOtherEngineFindsNoTable() {
        org.junit.jupiter.api.Assumptions.assumeTrue(handle(store).local(), "local stores only");
        createTable(one, "dropped-now");
        put(two, "dropped-now", Map.of("pk", s("a")));
        one.control().deleteTable(CTX, "dropped-now");
        assertThatThrownBy(() -> put(two, "dropped-now", Map.of("pk", s("b"))))
                .isInstanceOf(DynamoException.class)
                .hasMessageContaining("Requested resource not found");
    }

    /** Increments of one item from both engines: its stream records carry 1, 2, 3... in order. */
    @Test
    @Timeout(180)
    void anItemsStreamRecordsAreInWriteOrder() throws Exception {
        one.control()
                .createTable(
                        CTX,
                        new CreateTableRequest(
                                "streamed",
                                List.of(new AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                List.of(new KeySchemaInput("pk", KeyType.HASH)),
                                null,
                                null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                new CreateTableRequest.StreamInput(true, StreamViewType.NEW_IMAGE),
                                null,
                                null,
                                null,
                                null));
        runOnBoth(engine -> {
            for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                engine.items()
                        .updateItem(new ItemRequests.UpdateItem(
                                "streamed",
                                Map.of("pk", s("c")),
                                "ADD n :one",
                                null,
                                null,
                                null,
                                null,
                                null,
                                new ItemRequests.Conditions(
                                        null, null, Map.of(":one", AttributeValue.n(1)), null, null)));
            }
        });
        int writes = 2 * THREADS_PER_ENGINE * INCREMENTS_PER_THREAD;
        for (Engine reader : List.of(one, two)) {
            TableDescriptor d = reader.catalog().get("streamed").descriptor();
            List<ChangeRecord> records = reader.changeLog()
                    .read(d.id(), 1, reader.changeLog().visibleBound(d), writes + 1, Long.MAX_VALUE)
                    .records();
            assertThat(records).hasSize(writes);
            long previousSequence = 0;
            for (int i = 0; i < writes; i++) {
                ChangeRecord r = records.get(i);
                assertThat(r.sequence()).isGreaterThan(previousSequence);
                previousSequence = r.sequence();
                assertThat(number(r.newImage(), "n")).as("record " + i).isEqualTo(i + 1);
            }
        }
    }

    /**
     * Writes of many items from both engines: every record takes its own number (two records
     * with one number would share a key, and one would be lost), and each item's records are in
     * its write order.
     */
    @Test
    @Timeout(180)
    void recordsOfManyItemsFromBothTakeUniqueNumbersInWriteOrder() throws Exception {
        one.control()
                .createTable(
                        CTX,
                        new CreateTableRequest(
                                "streamed-many",
                                List.of(new AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                List.of(new KeySchemaInput("pk", KeyType.HASH)),
                                null,
                                null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                new CreateTableRequest.StreamInput(true, StreamViewType.NEW_IMAGE),
                                null,
                                null,
                                null,
                                null));
        int itemsCount = 5;
        runOnBoth(engine -> {
            for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                String pk = "item" + ThreadLocalRandom.current().nextInt(itemsCount);
                engine.items()
                        .updateItem(new ItemRequests.UpdateItem(
                                "streamed-many",
                                Map.of("pk", s(pk)),
                                "ADD n :one",
                                null,
                                null,
                                null,
                                null,
                                null,
                                new ItemRequests.Conditions(
                                        null, null, Map.of(":one", AttributeValue.n(1)), null, null)));
            }
        });
        int writes = 2 * THREADS_PER_ENGINE * INCREMENTS_PER_THREAD;
        for (Engine reader : List.of(one, two)) {
            TableDescriptor d = reader.catalog().get("streamed-many").descriptor();
            List<ChangeRecord> records = reader.changeLog()
                    .read(d.id(), 1, reader.changeLog().visibleBound(d), writes + 1, Long.MAX_VALUE)
                    .records();
            assertThat(records).hasSize(writes);
            Map<String, Long> lastByItem = new java.util.HashMap<>();
            for (ChangeRecord r : records) {
                String pk = ((AttributeValue.S) r.keys().get("pk")).value();
                long n = number(r.newImage(), "n");
                assertThat(n).as(pk + " in write order").isEqualTo(lastByItem.getOrDefault(pk, 0L) + 1);
                lastByItem.put(pk, n);
            }
        }
    }

    /**
     * UpdateTable from both engines at once: each changes a different setting, and both changes
     * are in the table's descriptor on both engines (neither overwrote the other with what it read).
     */
    @Test
    @Timeout(180)
    void updateTableFromBothAtOnceKeepsBothChanges() throws Exception {
        createTable(one, "updated");
        two.catalog().refresh();
        int rounds = 20;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < rounds; round++) {
                boolean protect = round % 2 == 0;
                String tableClass = protect ? "STANDARD_INFREQUENT_ACCESS" : "STANDARD";
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                Future<?> a = pool.submit(() -> {
                    start.await();
                    return one.control()
                            .updateTable(
                                    CTX,
                                    new dev.kumiko.engine.control.UpdateTableRequest(
                                            "updated", null, null, null, null, null, null, false, null, protect));
                });
                Future<?> b = pool.submit(() -> {
                    start.await();
                    return two.control()
                            .updateTable(
                                    CTX,
                                    new dev.kumiko.engine.control.UpdateTableRequest(
                                            "updated",
                                            null,
                                            null,
                                            null,
                                            null,
                                            null,
                                            null,
                                            false,
                                            dev.kumiko.model.TableClass.valueOf(tableClass),
                                            null));
                });
                a.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
                b.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
                for (Engine e : List.of(one, two)) {
                    e.catalog().refresh();
                    TableDescriptor d = e.catalog().get("updated").descriptor();
                    assertThat(d.deletionProtectionEnabled())
                            .as("round " + round)
                            .isEqualTo(protect);
                    assertThat(d.tableClass())
                            .as("round " + round)
                            .isEqualTo(dev.kumiko.model.TableClass.valueOf(tableClass));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Tags added from both engines at once: every one of them stays. */
    @Test
    @Timeout(180)
    void tagsFromBothAtOnceAreAllKept() throws Exception {
        createTable(one, "tagged");
        two.catalog().refresh();
        String arn = one.control().describeTable(CTX, "tagged").tableArn();
        AtomicLong next = new AtomicLong();
        int tagsPerThread = 12; // 48 in all, under the 50 tags a table may have
        runOnBoth(engine -> {
            for (int i = 0; i < tagsPerThread; i++) {
                engine.control()
                        .tagResource(arn, List.of(new CreateTableRequest.TagInput("t" + next.incrementAndGet(), "v")));
            }
        });
        one.catalog().refresh();
        assertThat(one.control().listTags(arn)).hasSize(2 * THREADS_PER_ENGINE * tagsPerThread);
    }

    /** A TransactWriteItems retried on the other engine answers from the token, running nothing. */
    @Test
    void aClientRequestTokenReplayedOnTheOtherEngineReturnsTheFirstResult() {
        createTable(one, "tokened");
        TransactRequests.TransactWrite r = new TransactRequests.TransactWrite(
                List.of(new TransactRequests.WriteAction(
                        1,
                        TransactRequests.Kind.UPDATE,
                        "tokened",
                        null,
                        Map.of("pk", s("c")),
                        null,
                        "ADD n :one",
                        null,
                        Map.of(":one", AttributeValue.n(1)),
                        null)),
                ReturnConsumedCapacity.TOTAL,
                null,
                "token-1");
        var first = one.transactions().transactWriteItems(r);
        var replay = two.transactions().transactWriteItems(r);
        assertThat(number(get(one, "tokened", "c"), "n")).isEqualTo(1);
        assertThat(replay.consumedCapacity()).isEqualTo(first.consumedCapacity());
        assertThat(replay.consumedCapacity()).isNotNull();
        var quiet = two.transactions()
                .transactWriteItems(new TransactRequests.TransactWrite(r.transactItems(), null, null, "token-1"));
        assertThat(quiet.consumedCapacity())
                .as("same request, no capacity asked")
                .isNull();
        assertThat(number(get(two, "tokened", "c"), "n")).isEqualTo(1);
    }

    /**
     * Both engines sweep at once; each expired item is deleted by exactly one of them. A sweep
     * leaves an item that another writer races for to the next pass (TimeToLiveSweeper), and on a
     * store that aborts one of two transactions meeting on a key both may be refused, so the
     * engines sweep until a pass of both deletes nothing: the deletions counted must add up to the
     * expired items exactly, which no item deleted twice or left behind allows.
     */
    /** Sweeps of both engines at most: the first deletes nearly all, a later one what was raced for. */
    private static final int TTL_PASSES_MAX = 5;

    @Test
    @Timeout(180)
    void timeToLiveDeletesEachExpiredItemOnce() throws Exception {
        createTable(one, "expiring");
        one.timeToLive()
                .updateTimeToLive(new TimeToLiveRequests.UpdateTimeToLive(
                        "expiring", new TimeToLiveRequests.Specification("ttl", true)));
        int items = 2_000;
        for (int i = 0; i < items; i++) {
            long ttl = i % 2 == 0 ? NOW_MILLIS / 1000 - 1 : NOW_MILLIS / 1000 + 3600;
            put(i % 2 == 0 ? one : two, "expiring", Map.of("pk", s("k" + i), "ttl", AttributeValue.n(ttl)));
        }
        two.catalog().refresh();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            long deleted = 0;
            for (int pass = 0; pass < TTL_PASSES_MAX; pass++) {
                Future<Long> a = pool.submit(() -> one.admin().sweepTimeToLive());
                Future<Long> b = pool.submit(() -> two.admin().sweepTimeToLive());
                long inPass = a.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS) + b.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
                deleted += inPass;
                if (inPass == 0) {
                    break;
                }
            }
            assertThat(deleted).isEqualTo(items / 2);
        } finally {
            pool.shutdownNow();
        }
        assertItemCount(one, "expiring", items / 2);
        assertThat(get(two, "expiring", "k0")).isNull();
        assertThat(get(two, "expiring", "k1")).isNotNull();
    }

    // ---- helpers -----------------------------------------------------------------------------

    /** How long a table's item count may lag the writes of the other engine (a shared store's). */
    static final long COUNT_LAG_MILLIS_MAX = 10_000;

    /**
     * Asserts a table's item count as engine reports it. An engine counts its own writes at once;
     * over a store shared by processes, another engine's writes may show a moment later (the Ignite
     * store folds its counter additions in the background, as DynamoDB refreshes ItemCount), so the
     * count is read again until it matches or COUNT_LAG_MILLIS_MAX has passed.
     */
    static void assertItemCount(Engine engine, String table, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COUNT_LAG_MILLIS_MAX);
        long count = engine.control().describeTable(CTX, table).itemCount();
        while (count != expected && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
            count = engine.control().describeTable(CTX, table).itemCount();
        }
        assertThat(count).as("item count of %s", table).isEqualTo(expected);
    }

    interface EngineWork {
        void run(Engine engine) throws Exception;
    }

    /** Runs work on THREADS_PER_ENGINE threads of each engine at once and waits for all. */
    private void runOnBoth(EngineWork work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_ENGINE);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 2 * THREADS_PER_ENGINE; t++) {
                Engine engine = t % 2 == 0 ? one : two;
                running.add(pool.submit(() -> {
                    work.run(engine);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(WAIT_SECONDS_MAX, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static void createTable(Engine engine, String name) {
        engine.control()
                .createTable(
                        CTX,
                        new CreateTableRequest(
                                name,
                                List.of(new AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                List.of(new KeySchemaInput("pk", KeyType.HASH)),
                                null,
                                null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
    }

    static void put(Engine engine, String table, Map<String, AttributeValue> item) {
        engine.items()
                .putItem(new ItemRequests.PutItem(table, item, null, null, null, null, ItemRequests.Conditions.NONE));
    }

    static Map<String, AttributeValue> get(Engine engine, String table, String pk) {
        return engine.items()
                .getItem(new ItemRequests.GetItem(table, Map.of("pk", s(pk)), true, null, null, null, null))
                .attributes();
    }

    static long number(Map<String, AttributeValue> item, String name) {
        return ((AttributeValue.N) item.get(name)).value().value().longValueExact();
    }

    static AttributeValue s(String value) {
        return AttributeValue.s(value);
    }
}
