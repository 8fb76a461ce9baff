package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BatchGetItem and TransactGetItems read all their keys in one store call. */
class MultiGetTest {
    private static final RequestContext CTX = new RequestContext("us-east-1");

    private static Engine engineWithTables(CountingStore store, String... tables) {
        Engine engine = Engine.open(store);
        for (String name : tables) {
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
            for (int i = 0; i < 3; i++) {
                engine.items()
                        .putItem(new ItemRequests.PutItem(
                                name,
                                Map.of("pk", AttributeValue.s("k" + i), "t", AttributeValue.s(name)),
                                null,
                                null,
                                null,
                                null,
                                ItemRequests.Conditions.NONE));
            }
        }
        return engine;
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.s(pk));
    }

    @Test
    void batchGetItemReadsEveryKeyOfEveryTableInOneCall() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine engine = engineWithTables(store, "aaa", "bbb")) {
            store.resetForThisThread();
            Map<String, BatchRequests.KeysAndAttributes> request = new LinkedHashMap<>();
            for (String table : List.of("aaa", "bbb")) {
                request.put(
                        table,
                        new BatchRequests.KeysAndAttributes(
                                List.of(key("k0"), key("k2"), key("missing")), null, null, null, true));
            }
            var result = engine.items().batchGetItem(new BatchRequests.BatchGet(request, null));
            assertThat(result.responses().get("aaa")).hasSize(2);
            assertThat(result.responses().get("bbb"))
                    .hasSize(2)
                    .allSatisfy(item -> assertThat(item).containsEntry("t", AttributeValue.s("bbb")));
            assertThat(store.getAlls.get()).isEqualTo(1);
            assertThat(store.gets.get()).as("six keys, no other read").isEqualTo(6);
        }
    }

    @Test
    void transactGetItemsReadsEveryKeyInOneCall() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine engine = engineWithTables(store, "aaa", "bbb")) {
            store.resetForThisThread();
            List<TransactRequests.GetAction> gets = new ArrayList<>();
            for (String pk : List.of("k1", "missing", "k0")) {
                gets.add(new TransactRequests.GetAction(true, "aaa", key(pk), null, null));
                gets.add(new TransactRequests.GetAction(true, "bbb", key(pk), null, null));
            }
            var result = engine.transactions().transactGetItems(new TransactRequests.TransactGet(gets, null));
            assertThat(result.responses()).hasSize(6);
            assertThat(result.responses().get(2)).isNull();
            assertThat(result.responses().get(5)).containsEntry("t", AttributeValue.s("bbb"));
            assertThat(store.getAlls.get()).isEqualTo(1);
            assertThat(store.gets.get()).isEqualTo(6);
        }
    }
}
