package dev.kumiko.server.limits;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Seed 003 argues single item versus vertical partitioning in RCU and WCU per call. Both designs
 * of both scenarios are built here through the SDK, and each call's ConsumedCapacity must be the
 * figure the seed's tables give (eventually consistent reads, as the seed assumes):
 *
 * <pre>
 * 1:N user (20 KB) with 30 posts (5 KB each)     single item   vertical
 *   read the profile with 10 posts                21.5 RCU      2.5 + 6.5 = 9.0 RCU
 *   update the user's email                        170 WCU       20 WCU
 * 1:1 post (5 KB) with its counter (~1 KB)
 *   read post with counter                         1.0 RCU       1.0 + 0.5 = 1.5 RCU
 *   update the counter                             6 WCU         1 WCU
 * </pre>
 *
 * Sizes are DynamoDB's item sizes (attribute name bytes plus value bytes), padded exactly.
 */
class PartitioningCapacityTest {
    private static final int KB = 1024;
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "single");
        Fixtures.createTable(c, "vertical");
        Map<String, AttributeValue> single =
                new HashMap<>(Map.of("PK", s("USER#u1"), "SK", s("PROFILE"), "email", s("old@example.com")));
        for (int i = 0; i < 30; i++) {
            single.put(String.format("post%02d", i), s("p".repeat(5 * KB - 6)));
        }
        put("single", padded(single, 170 * KB));
        put(
                "vertical",
                padded(
                        new HashMap<>(Map.of("PK", s("USER#u1"), "SK", s("PROFILE"), "email", s("old@example.com"))),
                        20 * KB));
        for (int i = 0; i < 30; i++) {
            put(
                    "vertical",
                    padded(new HashMap<>(Map.of("PK", s("USER#u1"), "SK", s(String.format("POST#%02d", i)))), 5 * KB));
        }
        // 1:1: a 5 KB post and its counter as one 6 KB item, or as two items of 5 KB and ~1 KB.
        put("single", padded(new HashMap<>(Map.of("PK", s("POST#p1"), "SK", s("POST"), "likes", n("1"))), 6 * KB - 8));
        put("vertical", padded(new HashMap<>(Map.of("PK", s("POST#p1"), "SK", s("POST"))), 5 * KB));
        put("vertical", padded(new HashMap<>(Map.of("PK", s("POST#p1"), "SK", s("COUNTER"), "likes", n("1"))), KB - 8));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void readingTheProfileWithTenPosts() {
        assertThat(get("single", "USER#u1", "PROFILE").capacityUnits()).isEqualTo(21.5);
        double user = get("vertical", "USER#u1", "PROFILE").capacityUnits();
        double posts = c.query(b -> b.tableName("vertical")
                        .keyConditionExpression("PK = :u AND begins_with(SK, :p)")
                        .expressionAttributeValues(Map.of(":u", s("USER#u1"), ":p", s("POST#")))
                        .limit(10)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()
                .capacityUnits();
        assertThat(user).isEqualTo(2.5);
        assertThat(posts).isEqualTo(6.5);
        assertThat(user + posts).isEqualTo(9.0);
    }

    @Test
    void updatingTheUsersEmail() {
        assertThat(setEmail("single").capacityUnits()).isEqualTo(170.0);
        assertThat(setEmail("vertical").capacityUnits()).isEqualTo(20.0);
    }

    @Test
    void readingAPostWithItsCounter() {
        assertThat(get("single", "POST#p1", "POST").capacityUnits()).isEqualTo(1.0);
        assertThat(get("vertical", "POST#p1", "POST").capacityUnits()
                        + get("vertical", "POST#p1", "COUNTER").capacityUnits())
                .isEqualTo(1.5);
    }

    @Test
    void updatingTheCounter() {
        assertThat(like("single", "POST").capacityUnits()).isEqualTo(6.0);
        assertThat(like("vertical", "COUNTER").capacityUnits()).isEqualTo(1.0);
    }

    private static ConsumedCapacity get(String table, String pk, String sk) {
        return c.getItem(b -> b.tableName(table)
                        .key(Map.of("PK", s(pk), "SK", s(sk)))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
    }

    private static ConsumedCapacity setEmail(String table) {
        return c.updateItem(b -> b.tableName(table)
                        .key(Map.of("PK", s("USER#u1"), "SK", s("PROFILE")))
                        .updateExpression("SET email = :e")
                        .expressionAttributeValues(Map.of(":e", s("new@example.com")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
    }

    private static ConsumedCapacity like(String table, String sk) {
        return c.updateItem(b -> b.tableName(table)
                        .key(Map.of("PK", s("POST#p1"), "SK", s(sk)))
                        .updateExpression("ADD likes :one")
                        .expressionAttributeValues(Map.of(":one", n("1")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
    }

    private static void put(String table, Map<String, AttributeValue> item) {
        c.putItem(b -> b.tableName(table).item(item));
    }

    private static AttributeValue n(String v) {
        return AttributeValue.builder().n(v).build();
    }

    /** Adds a "pad" string attribute so that the item is exactly targetBytes in DynamoDB's sizing. */
    private static Map<String, AttributeValue> padded(Map<String, AttributeValue> item, int targetBytes) {
        int size = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            size += e.getKey().length() + valueBytes(e.getValue());
        }
        int padding = targetBytes - size - "pad".length();
        assertThat(padding).as("padding").isPositive();
        item.put("pad", s("x".repeat(padding)));
        return item;
    }

    /** ASCII strings are one byte per character; the small numbers here take 2 bytes. */
    private static int valueBytes(AttributeValue v) {
        if (v.s() != null) {
            return v.s().length();
        }
        assertThat(v.n()).isIn("1", "2");
        return 2;
    }
}
