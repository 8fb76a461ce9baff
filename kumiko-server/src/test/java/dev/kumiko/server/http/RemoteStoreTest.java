package dev.kumiko.server.http;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.Fixtures;
import dev.kumiko.server.RemoteStore;
import dev.kumiko.server.TestServer;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Over a store that says it is remote, the server runs every request off its event loops: each
 * operation below touches the store, and the store refuses calls made on an event loop thread.
 */
class RemoteStoreTest {
    @Test
    void everyOperationRunsOffTheEventLoops() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.REMOTE, EngineSettings.DEFAULTS)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, "remote");
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> key =
                    Map.of("PK", s("p"), "SK", s("1"));
            c.putItem(b -> b.tableName("remote").item(Map.of("PK", s("p"), "SK", s("1"), "v", s("x"))));
            assertThat(c.getItem(b -> b.tableName("remote").key(key).consistentRead(true))
                            .item())
                    .containsEntry("v", s("x"));
            c.updateItem(b -> b.tableName("remote")
                    .key(key)
                    .updateExpression("SET v = :y")
                    .expressionAttributeValues(Map.of(":y", s("y"))));
            assertThat(c.query(b -> b.tableName("remote")
                                    .keyConditionExpression("PK = :p")
                                    .expressionAttributeValues(Map.of(":p", s("p"))))
                            .count())
                    .isEqualTo(1);
            c.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder()
                    .put(p -> p.tableName("remote").item(Map.of("PK", s("p"), "SK", s("2"))))
                    .build()));
            assertThat(c.batchGetItem(b -> b.requestItems(Map.of(
                                    "remote",
                                    software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder()
                                            .keys(key, Map.of("PK", s("p"), "SK", s("2")))
                                            .build())))
                            .responses()
                            .get("remote"))
                    .hasSize(2);
            c.deleteItem(b -> b.tableName("remote").key(key));
            assertThat(c.scan(b -> b.tableName("remote")).count()).isEqualTo(1);
        }
    }

    /** The check above can fail: the same store refuses a call from an event loop thread. */
    @Test
    void theRemoteStoreRefusesEventLoopThreads() throws Exception {
        RemoteStore store = new RemoteStore(new MemoryStore());
        Throwable[] thrown = new Throwable[1];
        Thread loop = new Thread(
                () -> {
                    try {
                        store.get(new byte[] {1});
                    } catch (IllegalStateException e) {
                        thrown[0] = e;
                    }
                },
                "nioEventLoopGroup-9-9");
        loop.start();
        loop.join();
        assertThat(thrown[0]).hasMessageContaining("event loop");
        assertThatThrownBy(() -> {
                    throw thrown[0];
                })
                .isInstanceOf(IllegalStateException.class);
        store.close();
    }
}
