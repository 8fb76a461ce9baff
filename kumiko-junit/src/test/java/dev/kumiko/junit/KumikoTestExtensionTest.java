package dev.kumiko.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.embedded.Kumiko;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** {@code @KumikoTest} with tables and items from files, reset between tests, fields and parameters. */
@KumikoTest(resetBetweenTests = true)
@KumikoTables("tables/*.json")
@KumikoItems({"items/orders.json", "items/*.jsonl"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KumikoTestExtensionTest {
    static Kumiko staticKumiko;
    static int port;

    DynamoDbClient ddb;
    DynamoDbAsyncClient async;
    DynamoDbStreamsClient streams;
    DynamoDbEnhancedClient enhanced;
    Kumiko kumiko;

    @BeforeAll
    static void serverIsUpBeforeAll() {
        port = staticKumiko.port();
        assertThat(System.getProperty(KumikoExtension.ENDPOINT_PROPERTY))
                .isEqualTo(staticKumiko.endpoint().toString());
    }

    @Test
    @Order(1)
    void fieldsAreInjectedAndFixturesLoaded() throws Exception {
        assertThat(kumiko).isSameAs(staticKumiko);
        assertThat(ddb).isSameAs(kumiko.dynamoDbClient());
        assertThat(async).isSameAs(kumiko.dynamoDbAsyncClient());
        assertThat(streams).isSameAs(kumiko.streamsClient());
        assertThat(enhanced).isNotNull();
        assertThat(ddb.listTables().tableNames()).containsExactly("Orders", "Sessions");
        assertThat(ddb.scan(b -> b.tableName("Orders")).count()).isEqualTo(2);
        assertThat(async.scan(b -> b.tableName("Sessions")).get().count()).isEqualTo(2);
        ddb.putItem(b -> b.tableName("Orders")
                .item(Map.of("pk", AttributeValue.fromS("customer#9"), "sk", AttributeValue.fromS("order#9"))));
        ddb.deleteItem(b -> b.tableName("Sessions").key(Map.of("id", AttributeValue.fromS("s1"))));
    }

    @Test
    @Order(2)
    void resetRestoresTheFixturesAndParametersAreInjected(DynamoDbClient client, Kumiko handle) {
        assertThat(handle.port()).isEqualTo(port);
        assertThat(client.scan(b -> b.tableName("Orders")).count()).isEqualTo(2);
        assertThat(client.scan(b -> b.tableName("Sessions")).count()).isEqualTo(2);
    }
}
