package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kumiko.embedded.Kumiko;
import dev.kumiko.junit.KumikoTables;
import dev.kumiko.junit.KumikoTest;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

/** The application's tests against Kumiko, through the JUnit extension: one line of setup. */
@KumikoTest(resetBetweenTests = true)
@KumikoTables("tables/*.json")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrderStoreTest {
    DynamoDbEnhancedClient enhanced;
    DynamoDbClient ddb;
    Kumiko kumiko;

    @Test
    @Order(1)
    void crudThroughTheEnhancedClient() {
        OrderStore store = new OrderStore(enhanced);
        store.save(new com.example.orders.Order("ana", "o-1", new BigDecimal("12.50"), "NEW"));
        store.save(new com.example.orders.Order("ana", "o-2", new BigDecimal("3"), "NEW"));

        assertEquals(new BigDecimal("12.5"), store.find("ana", "o-1").orElseThrow().getTotal());
        com.example.orders.Order shipped = store.find("ana", "o-2").orElseThrow();
        shipped.setStatus("SHIPPED");
        store.save(shipped);
        assertEquals("SHIPPED", store.find("ana", "o-2").orElseThrow().getStatus());

        store.delete("ana", "o-1");
        List<com.example.orders.Order> left = store.ofCustomer("ana");
        assertEquals(List.of("o-2"), left.stream().map(com.example.orders.Order::getOrderId).toList());
    }

    @Test
    @Order(2)
    void theTablesComeFromJsonFilesAndResetEmptiedThem() {
        assertEquals(List.of("Orders", "Sessions"), ddb.listTables().tableNames());
        assertEquals(List.of("customerId", "orderId"), ddb.describeTable(b -> b.tableName("Orders")).table()
                .keySchema().stream().map(k -> k.attributeName()).toList());
        assertEquals(KeyType.HASH, ddb.describeTable(b -> b.tableName("Orders")).table().keySchema().get(0).keyType());
        // The first test's orders are gone: the extension reset the server and created the tables again.
        assertEquals(0, ddb.scan(b -> b.tableName("Orders")).count());
    }

    @Test
    @Order(3)
    void aSessionExpiresWhenTheClockSaysSoWithoutWaiting() {
        ddb.updateTimeToLive(b -> b.tableName("Sessions")
                .timeToLiveSpecification(t -> t.attributeName("expiresAt").enabled(true)));
        Instant now = kumiko.now();
        ddb.putItem(b -> b.tableName("Sessions").item(Map.of("id", AttributeValue.fromS("s-1"),
                "expiresAt", AttributeValue.fromN(Long.toString(now.plus(Duration.ofHours(1)).getEpochSecond())))));

        kumiko.advanceClock(Duration.ofHours(2));
        kumiko.sweepExpiredItems();

        assertFalse(ddb.getItem(b -> b.tableName("Sessions").key(Map.of("id", AttributeValue.fromS("s-1"))))
                .hasItem());
    }

    @Test
    @Order(4)
    void codeThatBuildsItsOwnClientFindsKumikoToo() {
        // Application code often builds its client from the environment; the extension set the
        // SDK's endpoint system property, so this client reaches Kumiko, not AWS.
        try (DynamoDbClient own = DynamoDbClient.builder()
                .region(software.amazon.awssdk.regions.Region.EU_CENTRAL_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("test", "test")))
                .build()) {
            assertTrue(own.listTables().tableNames().contains("Orders"));
        }
    }
}
