package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 3's promise: an expression update costs one store read and one store write. */
class UpdateCostTest {

    @Test
    void conditionalExpressionUpdateIsOneReadAndOneWrite() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine engine = Engine.open(store)) {
            engine.control()
                    .createTable(
                            new RequestContext("us-east-1"),
                            new CreateTableRequest(
                                    "counters",
                                    List.of(new AttributeDefinitionInput("PK", ScalarAttributeType.S)),
                                    List.of(new KeySchemaInput("PK", KeyType.HASH)),
                                    null,
                                    null,
                                    BillingMode.PAY_PER_REQUEST,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null));
            Map<String, AttributeValue> key = Map.of("PK", AttributeValue.s("c1"));
            var conditions = new ItemRequests.Conditions(
                    "attribute_not_exists(locked)",
                    null,
                    Map.of(":zero", AttributeValue.n(0), ":inc", AttributeValue.n(1)),
                    null,
                    null);
            var update = new ItemRequests.UpdateItem(
                    "counters",
                    key,
                    "SET n = if_not_exists(n, :zero) + :inc",
                    ReturnValue.ALL_NEW,
                    null,
                    null,
                    null,
                    null,
                    conditions);
            engine.items().updateItem(update);
            store.resetForThisThread();
            var result = engine.items().updateItem(update);
            assertThat(result.attributes()).containsEntry("n", AttributeValue.n(2));
            assertThat(store.gets.get()).isEqualTo(1);
            assertThat(store.batches.get()).isEqualTo(1);
            assertThat(store.entriesScanned.get()).isZero();
        }
    }
}
