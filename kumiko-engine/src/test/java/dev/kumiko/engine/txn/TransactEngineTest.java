package dev.kumiko.engine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

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
import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.failure.TransactionCanceled;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.error.DynamoException;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Transactions inside the engine: one storage batch, token expiry on the engine's clock, collection limits. */
class TransactEngineTest {
    private static final RequestContext CTX = new RequestContext("us-east-1");

    private static void createTable(Engine engine, String name, boolean withIndexes) {
        List<AttributeDefinitionInput> attributes = List.of(
                new AttributeDefinitionInput("pk", ScalarAttributeType.S),
                new AttributeDefinitionInput("sk", ScalarAttributeType.S),
                new AttributeDefinitionInput("g", ScalarAttributeType.S));
        List<KeySchemaInput> key =
                List.of(new KeySchemaInput("pk", KeyType.HASH), new KeySchemaInput("sk", KeyType.RANGE));
        ProjectionInput all = new ProjectionInput(ProjectionType.ALL, null);
        List<IndexInput> lsi = List.of(new IndexInput(
                "byG",
                List.of(new KeySchemaInput("pk", KeyType.HASH), new KeySchemaInput("g", KeyType.RANGE)),
                all,
                null));
        List<IndexInput> gsi =
                List.of(new IndexInput("global", List.of(new KeySchemaInput("g", KeyType.HASH)), all, null));
        engine.control()
                .createTable(
                        CTX,
                        new CreateTableRequest(
                                name,
                                withIndexes ? attributes : attributes.subList(0, 2),
                                key,
                                withIndexes ? lsi : null,
                                withIndexes ? gsi : null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
    }

    private static Map<String, AttributeValue> item(String pk, String sk, String g, String payload) {
        return Map.of(
                "pk",
                AttributeValue.s(pk),
                "sk",
                AttributeValue.s(sk),
                "g",
                AttributeValue.s(g),
                "payload",
                AttributeValue.s(payload));
    }

    private static TransactRequests.WriteAction put(String table, Map<String, AttributeValue> item) {
        return new TransactRequests.WriteAction(
                1, TransactRequests.Kind.PUT, table, item, null, null, null, null, null, null);
    }

    private static TransactRequests.WriteAction increment(String table, String pk) {
        return new TransactRequests.WriteAction(
                1,
                TransactRequests.Kind.UPDATE,
                table,
                null,
                Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s("1")),
                null,
                "ADD n :one",
                null,
                Map.of(":one", AttributeValue.n(1)),
                null);
    }

    private static TransactRequests.TransactWrite write(String token, TransactRequests.WriteAction... actions) {
        return new TransactRequests.TransactWrite(List.of(actions), null, null, token);
    }

    private static long counter(Engine engine, String table, String pk) {
        Map<String, AttributeValue> got = engine.items()
                .getItem(new ItemRequests.GetItem(
                        table,
                        Map.of("pk", AttributeValue.s(pk), "sk", AttributeValue.s("1")),
                        true,
                        null,
                        null,
                        null,
                        null))
                .attributes();
        return ((AttributeValue.N) got.get("n")).value().value().longValueExact();
    }

    @Test
    void aTransactionWithIndexEntriesIsOneStorageBatch() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine engine = Engine.open(store)) {
            createTable(engine, "indexed", true);
            store.reset();
            engine.transactions()
                    .transactWriteItems(write(
                            null,
                            put("indexed", item("a", "1", "x", "p")),
                            put("indexed", item("b", "1", "y", "p")),
                            put("indexed", item("c", "1", "z", "p"))));
            assertThat(store.batches.get()).isEqualTo(1);
            assertThat(store.getAlls.get()).as("the items read in one call").isEqualTo(1);
            // The table has an LSI: each item collection's size counter is read for its limit.
            assertThat(store.gets.get())
                    .as("one read per item and per item collection")
                    .isEqualTo(6);
        }
    }

    @Test
    void aTokenIsRememberedForTenMinutesOnTheEnginesClock() {
        AtomicLong now = new AtomicLong(1_000_000);
        Clock clock = now::get;
        try (Engine engine = Engine.open(new MemoryStore(), clock)) {
            createTable(engine, "counted", false);
            TransactRequests.TransactWrite r = write("tok", increment("counted", "c"));
            engine.transactions().transactWriteItems(r);
            now.addAndGet(ClientTokens.TOKEN_TTL_MILLIS - 1);
            engine.transactions().transactWriteItems(r);
            assertThat(counter(engine, "counted", "c"))
                    .as("replayed inside the window")
                    .isEqualTo(1);
            now.addAndGet(1);
            engine.transactions().transactWriteItems(r);
            assertThat(counter(engine, "counted", "c"))
                    .as("a new request after the window")
                    .isEqualTo(2);
            now.addAndGet(ClientTokens.TOKEN_TTL_MILLIS);
            engine.transactions().transactWriteItems(write("tok", increment("counted", "other")));
            assertThat(counter(engine, "counted", "other"))
                    .as("an expired token may carry a new request")
                    .isEqualTo(1);
        }
    }

    /** Tokens are store data: a new engine over the store (a restart) still knows them. */
    @Test
    void aTokenSurvivesARestartOfTheEngine() {
        AtomicLong now = new AtomicLong(1_000_000);
        MemoryStore store = new MemoryStore();
        TransactRequests.TransactWrite r = write("kept", increment("counted", "c"));
        try (Engine engine = Engine.open(new SharedStore(store), now::get)) {
            createTable(engine, "counted", false);
            engine.transactions().transactWriteItems(r);
        }
        try (Engine engine = Engine.open(new SharedStore(store), now::get)) {
            engine.transactions().transactWriteItems(r);
            assertThat(counter(engine, "counted", "c"))
                    .as("replayed, not run again")
                    .isEqualTo(1);
            Throwable t = catchThrowable(
                    () -> engine.transactions().transactWriteItems(write("kept", increment("counted", "other"))));
            assertThat(t).isInstanceOf(DynamoException.class).hasMessageContaining("different payload");
        }
        store.close();
    }

    /** Expired tokens are removed from the store, so it does not grow with traffic. */
    @Test
    void expiredTokensAreRemoved() {
        AtomicLong now = new AtomicLong(1_000_000);
        MemoryStore store = new MemoryStore();
        try (Engine engine = Engine.open(new SharedStore(store), now::get)) {
            createTable(engine, "counted", false);
            for (int i = 0; i < 10; i++) {
                engine.transactions().transactWriteItems(write("t" + i, increment("counted", "c")));
            }
            assertThat(tokenKeys(store)).isEqualTo(20);
            now.addAndGet(ClientTokens.TOKEN_TTL_MILLIS + ClientTokens.CLEANUP_INTERVAL_MILLIS);
            engine.transactions().transactWriteItems(write("fresh", increment("counted", "c")));
            assertThat(tokenKeys(store)).as("only the fresh token's two keys").isEqualTo(2);
        }
        store.close();
    }

    private static int tokenKeys(MemoryStore store) {
        int n = 0;
        try (var c = store.scan(new byte[] {KeySpace.TOKENS}, new byte[] {KeySpace.TOKENS + 1}, false)) {
            while (c.next()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void twoPutsThatTogetherOverfillAnItemCollectionCancelTheTransaction() {
        long limit = 4_000;
        try (Engine engine = Engine.open(new MemoryStore(), Clock.SYSTEM, new EngineSettings(limit))) {
            createTable(engine, "collected", true);
            String half = "x".repeat(1_500);
            Throwable t = catchThrowable(() -> engine.transactions()
                    .transactWriteItems(write(
                            null,
                            put("collected", item("same", "1", "g1", half)),
                            put("collected", item("other", "1", "g2", "p")),
                            put("collected", item("same", "2", "g3", half)))));
            assertThat(t).isInstanceOf(TransactionCanceled.class);
            assertThat(((TransactionCanceled) t).reasons())
                    .extracting(CancellationReason::code)
                    .containsExactly("ItemCollectionSizeLimitExceeded", "None", "None");
            assertThat(EngineInternals.catalog(engine).get("collected").stats().itemCount())
                    .as("nothing written")
                    .isZero();
            engine.transactions().transactWriteItems(write(null, put("collected", item("same", "1", "g1", half))));
            assertThat(EngineInternals.catalog(engine).get("collected").stats().itemCount())
                    .isEqualTo(1);
        }
    }
}
