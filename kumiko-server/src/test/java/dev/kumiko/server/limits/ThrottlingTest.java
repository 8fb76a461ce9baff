package dev.kumiko.server.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Throughput enforcement through the SDK, on a clock that moves only when the test says: burst,
 * refill, item sizes, GSIs, UpdateTable, on-demand hot keys, the switch (server flag and tag), and
 * batches handing throttled items back. Each test uses its own tables, so buckets never carry over.
 */
@org.junit.jupiter.api.Tag("slow")
class ThrottlingTest {
    private static final String TABLE_MESSAGE = "The level of configured provisioned throughput for the table was "
            + "exceeded. Consider increasing your provisioning level with the UpdateTable API.";
    private static final String INDEX_MESSAGE = "The level of configured provisioned throughput for one or more "
            + "global secondary indexes of the table was exceeded. Consider increasing your provisioning level for "
            + "the under-provisioned global secondary indexes with the UpdateTable API";
    private static final String HOT_KEY_MESSAGE = "Throughput exceeds the current capacity of your table or index. "
            + "DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions "
            + "persist, check if you have a hot key: "
            + "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
    private static final String ARN_PREFIX = "arn:aws:dynamodb:us-east-1:000000000000:table/";
    /** DynamoDB retains up to 300 seconds of unused capacity. */
    private static final int BURST_SECONDS = 300;

    private static final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private static TestServer on;
    private static TestServer off;
    private static DynamoDbClient c;
    private static DynamoDbClient cOff;

    @BeforeAll
    static void start() {
        on = TestServer.start(TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS.withThrottling(true), clock);
        off = TestServer.start(TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, clock);
        c = on.client();
        cOff = off.client();
    }

    @AfterAll
    static void stop() {
        on.close();
        off.close();
    }

    @Test
    void provisionedWritesGetTheBurstThenTheProvisionedRateAndBiggerItemsCostMore() {
        provisioned(c, "writes", 1, 1);
        for (int i = 0; i < BURST_SECONDS; i++) {
            put(c, "writes", "k" + i, 1000);
        }
        assertProvisionedThrottle(
                () -> put(c, "writes", "over", 1000), "TableWriteProvisionedThroughputExceeded", ARN_PREFIX + "writes");
        assertThat(get(c, "writes", "over"))
                .as("a throttled write changes nothing")
                .isEmpty();

        clock.advanceSeconds(5);
        for (int i = 0; i < 5; i++) {
            put(c, "writes", "after" + i, 1000);
        }
        assertProvisionedThrottle(
                () -> put(c, "writes", "over", 1000), "TableWriteProvisionedThroughputExceeded", ARN_PREFIX + "writes");

        clock.advanceSeconds(1);
        put(c, "writes", "big", 3000); // 3 WCU, admitted with 1 left: the bucket owes 2
        clock.advanceSeconds(2);
        assertProvisionedThrottle(
                () -> put(c, "writes", "over", 1000), "TableWriteProvisionedThroughputExceeded", ARN_PREFIX + "writes");
        clock.advanceSeconds(1);
        put(c, "writes", "paid", 1000);
    }

    @Test
    void transactionsAreThrottledAndPayTwiceTheWriteUnits() {
        provisioned(c, "txwrites", 1, 1);
        // Each 1-KB transactional put costs 2 WCU: the 300-unit burst admits 150 of them.
        for (int i = 0; i < BURST_SECONDS / 2; i++) {
            String pk = "t" + i;
            c.transactWriteItems(b ->
                    b.transactItems(t -> t.put(p -> p.tableName("txwrites").item(item(pk, 1000)))));
        }
        assertProvisionedThrottle(
                () -> c.transactWriteItems(b ->
                        b.transactItems(t -> t.put(p -> p.tableName("txwrites").item(item("over", 1000))))),
                "TableWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "txwrites");
        assertThat(get(c, "txwrites", "over"))
                .as("a throttled transaction changes nothing")
                .isEmpty();
        clock.advanceSeconds(2);
        c.transactWriteItems(b ->
                b.transactItems(t -> t.put(p -> p.tableName("txwrites").item(item("paid", 1000)))));
    }

    @Test
    void provisionedReadsCountStronglyConsistentUnitsWholeAndEventuallyConsistentOnesHalf() {
        provisioned(c, "reads", 1, 5);
        put(c, "reads", "k", 1000);
        for (int i = 0; i < BURST_SECONDS; i++) {
            assertThat(get(c, "reads", "k")).isNotEmpty();
        }
        assertProvisionedThrottle(
                () -> get(c, "reads", "k"), "TableReadProvisionedThroughputExceeded", ARN_PREFIX + "reads");
        assertProvisionedThrottle(
                () -> c.scan(b -> b.tableName("reads")),
                "TableReadProvisionedThroughputExceeded",
                ARN_PREFIX + "reads");

        clock.advanceSeconds(1);
        c.getItem(b -> b.tableName("reads").key(key("k")));
        c.getItem(b -> b.tableName("reads").key(key("k")));
        assertProvisionedThrottle(
                () -> c.getItem(b -> b.tableName("reads").key(key("k"))),
                "TableReadProvisionedThroughputExceeded",
                ARN_PREFIX + "reads");
    }

    @Test
    void aGsiWithoutWriteCapacityThrottlesOnlyTheWritesThatChangeIt() {
        c.createTable(b -> b.tableName("gsiw")
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                .provisionedThroughput(t -> t.readCapacityUnits(1000L).writeCapacityUnits(1000L))
                .globalSecondaryIndexes(g -> g.indexName("byG")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))));
        for (int i = 0; i < BURST_SECONDS; i++) {
            String pk = "k" + i;
            c.putItem(b -> b.tableName("gsiw").item(Map.of("PK", s(pk), "g", s("x"))));
        }
        assertProvisionedThrottle(
                () -> c.putItem(b -> b.tableName("gsiw").item(Map.of("PK", s("over"), "g", s("x")))),
                INDEX_MESSAGE,
                "IndexWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "gsiw/index/byG");
        assertThat(get(c, "gsiw", "over"))
                .as("a throttled write changes nothing")
                .isEmpty();

        c.putItem(b -> b.tableName("gsiw").item(Map.of("PK", s("plain"), "v", s("no index key"))));
        c.putItem(b -> b.tableName("gsiw").item(Map.of("PK", s("k1"), "g", s("x")))); // entry unchanged
        c.updateItem(b -> b.tableName("gsiw")
                .key(key("k1"))
                .updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", s("not projected"))));
        assertProvisionedThrottle(
                () -> c.updateItem(b -> b.tableName("gsiw")
                        .key(key("k1"))
                        .updateExpression("SET g = :v")
                        .expressionAttributeValues(Map.of(":v", s("y")))),
                INDEX_MESSAGE,
                "IndexWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "gsiw/index/byG");
        assertThat(get(c, "gsiw", "k1")).containsEntry("g", s("x"));
    }

    @Test
    void aGsiWithoutReadCapacityThrottlesQueriesOnItButNotOnTheTable() {
        c.createTable(b -> b.tableName("gsir")
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                .provisionedThroughput(t -> t.readCapacityUnits(1000L).writeCapacityUnits(1000L))
                .globalSecondaryIndexes(g -> g.indexName("byG")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1000L))));
        for (int i = 0; i < 10; i++) {
            Map<String, AttributeValue> item = item("k" + i, 3900);
            item.put("g", s("x"));
            c.putItem(b -> b.tableName("gsir").item(item));
        }
        double consumed = 0;
        double last = 0;
        boolean throttled = false;
        for (int i = 0; i < 100 && !throttled; i++) {
            try {
                last = c.query(b -> b.tableName("gsir")
                                .indexName("byG")
                                .keyConditionExpression("g = :g")
                                .expressionAttributeValues(Map.of(":g", s("x")))
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                        .consumedCapacity()
                        .capacityUnits();
                consumed += last;
            } catch (ProvisionedThroughputExceededException e) {
                assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(INDEX_MESSAGE);
                assertThat(e.throttlingReasons())
                        .containsExactly(
                                reason("IndexReadProvisionedThroughputExceeded", ARN_PREFIX + "gsir/index/byG"));
                throttled = true;
            }
        }
        assertThat(throttled).isTrue();
        assertThat(consumed).as("refused only once the 300 s burst was spent").isGreaterThanOrEqualTo(300);
        assertThat(consumed - last).as("admitted while some was left").isLessThan(300);
        assertThat(c.query(b -> b.tableName("gsir")
                                .keyConditionExpression("PK = :p")
                                .expressionAttributeValues(Map.of(":p", s("k0"))))
                        .count())
                .isEqualTo(1);
    }

    @Test
    void updateTableChangesTheRate() {
        provisioned(c, "upd", 1, 1);
        putMany(c, "upd", "k", BURST_SECONDS, 100);
        assertProvisionedThrottle(
                () -> put(c, "upd", "over", 100), "TableWriteProvisionedThroughputExceeded", ARN_PREFIX + "upd");
        c.updateTable(b -> b.tableName("upd")
                .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(10L)));
        clock.advanceSeconds(1);
        for (int i = 0; i < 10; i++) {
            put(c, "upd", "fast" + i, 100);
        }
        assertProvisionedThrottle(
                () -> put(c, "upd", "over", 100), "TableWriteProvisionedThroughputExceeded", ARN_PREFIX + "upd");
    }

    @Test
    void aFailedConditionalWriteStillConsumesCapacity() {
        provisioned(c, "cond", 1, 1);
        put(c, "cond", "k", 100);
        putMany(c, "cond", "k", BURST_SECONDS - 2, 100);
        assertThatThrownBy(() -> c.putItem(b ->
                        b.tableName("cond").item(Map.of("PK", s("k"))).conditionExpression("attribute_not_exists(PK)")))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertProvisionedThrottle(
                () -> put(c, "cond", "over", 100), "TableWriteProvisionedThroughputExceeded", ARN_PREFIX + "cond");
    }

    @Test
    void aFailedConditionalPutIsChargedTheLargerOfTheExistingAndTheNewItem() {
        provisioned(c, "condbig", 1, 1);
        put(c, "condbig", "k", 100);
        putMany(c, "condbig", "k", BURST_SECONDS - 4, 100);
        // The existing item is 1 unit, the refused one 3: DynamoDB charges the larger.
        assertThatThrownBy(() -> c.putItem(b ->
                        b.tableName("condbig").item(item("k", 2500)).conditionExpression("attribute_not_exists(PK)")))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertProvisionedThrottle(
                () -> put(c, "condbig", "over", 100),
                "TableWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "condbig");
    }

    @Test
    void aTransactionCancelledByItsConditionStillConsumesCapacity() {
        provisioned(c, "txcancel", 1, 1);
        put(c, "txcancel", "k", 100);
        putMany(c, "txcancel", "k", BURST_SECONDS - 2, 100);
        assertThatThrownBy(() -> c.transactWriteItems(b -> b.transactItems(t -> t.conditionCheck(
                        k -> k.tableName("txcancel").key(key("k")).conditionExpression("attribute_not_exists(PK)")))))
                .isInstanceOf(TransactionCanceledException.class);
        assertProvisionedThrottle(
                () -> put(c, "txcancel", "over", 100),
                "TableWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "txcancel");
    }

    @Test
    void onDemandHotKeyIsThrottledAtOneThousandWriteUnitsASecondWhileOtherKeysAreNot() {
        onDemand(c, "hot", Map.of());
        for (int i = 0; i < 100; i++) {
            putSorted(c, "hot", "h", i, 10_000); // 10 WCU each: 1,000 in all
        }
        ThrowingCallable over = () -> putSorted(c, "hot", "h", 100, 10_000);
        assertThatThrownBy(over).isInstanceOfSatisfying(ThrottlingException.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(HOT_KEY_MESSAGE);
            assertThat(e.throttlingReasons())
                    .containsExactly(reason("TableWriteKeyRangeThroughputExceeded", ARN_PREFIX + "hot"));
        });
        putSorted(c, "hot", "cold", 0, 10_000);
        clock.advanceSeconds(1);
        putSorted(c, "hot", "h", 100, 10_000);
    }

    @Test
    void onDemandHotKeyReadsAreThrottledOnceTheyReachThreeThousandReadUnitsASecond() {
        onDemand(c, "hotr", Map.of());
        for (int i = 0; i < 60; i++) {
            putSorted(c, "hotr", "h", i, 10_000);
        }
        clock.advanceSeconds(1); // the writes' second is over; reads have their own bucket anyway
        double consumed = 0;
        double last = 0;
        boolean throttled = false;
        for (int i = 0; i < 100 && !throttled; i++) {
            try {
                last = c.query(b -> b.tableName("hotr")
                                .keyConditionExpression("PK = :p")
                                .consistentRead(true)
                                .expressionAttributeValues(Map.of(":p", s("h")))
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                        .consumedCapacity()
                        .capacityUnits();
                consumed += last;
            } catch (ThrottlingException e) {
                assertThat(e.throttlingReasons())
                        .containsExactly(reason("TableReadKeyRangeThroughputExceeded", ARN_PREFIX + "hotr"));
                throttled = true;
            }
        }
        assertThat(throttled).isTrue();
        assertThat(consumed).as("refused only once 3,000 were spent").isGreaterThanOrEqualTo(3000);
        assertThat(consumed - last).as("admitted while under 3,000").isLessThan(3000);
        assertThat(c.getItem(b -> b.tableName("hotr").key(Map.of("PK", s("other"), "SK", s("0"))))
                        .hasItem())
                .isFalse();
    }

    @Test
    void enforcementOffNeverThrottles() {
        provisioned(cOff, "free", 1, 1);
        putMany(cOff, "free", "k", BURST_SECONDS + 100, 1000);
        onDemand(cOff, "freehot", Map.of());
        for (int i = 0; i < 150; i++) {
            putSorted(cOff, "freehot", "h", i, 10_000);
        }
    }

    @Test
    void theTagSwitchesEnforcementPerTable() {
        provisioned(c, "exempt", 1, 1, Map.of("kumiko:throttling", "off"));
        putMany(c, "exempt", "k", BURST_SECONDS + 100, 1000);

        provisioned(cOff, "strict", 1, 1, Map.of("kumiko:throttling", "on"));
        putMany(cOff, "strict", "k", BURST_SECONDS, 1000);
        assertProvisionedThrottle(
                () -> put(cOff, "strict", "over", 1000),
                "TableWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "strict");

        provisioned(cOff, "later", 1, 1);
        putMany(cOff, "later", "k", BURST_SECONDS + 10, 1000);
        cOff.tagResource(b -> b.resourceArn(ARN_PREFIX + "later")
                .tags(Tag.builder().key("kumiko:throttling").value("on").build()));
        // Nothing was counted while off, so enforcement starts with a full burst.
        putMany(cOff, "later", "on", BURST_SECONDS, 1000);
        assertProvisionedThrottle(
                () -> put(cOff, "later", "over", 1000),
                "TableWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "later");
    }

    @Test
    void batchWriteHandsThrottledItemsBackAndFailsWhenNoneCouldBeWritten() {
        provisioned(c, "bwrite", 1, 1);
        putMany(c, "bwrite", "k", BURST_SECONDS - 3, 100);
        List<WriteRequest> five = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            five.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item("b" + i, 100)).build())
                    .build());
        }
        BatchWriteItemResponse r = c.batchWriteItem(
                b -> b.requestItems(Map.of("bwrite", five)).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.unprocessedItems()).isEqualTo(Map.of("bwrite", five.subList(3, 5)));
        assertThat(r.consumedCapacity().get(0).capacityUnits()).isEqualTo(3.0);
        assertThat(get(c, "bwrite", "b2")).isNotEmpty();
        assertThat(get(c, "bwrite", "b3")).isEmpty();

        assertProvisionedThrottle(
                () -> c.batchWriteItem(b -> b.requestItems(Map.of("bwrite", five.subList(3, 5)))),
                "TableWriteProvisionedThroughputExceeded",
                ARN_PREFIX + "bwrite");

        onDemand(c, "bwhot", Map.of());
        for (int i = 0; i < 100; i++) {
            putSorted(c, "bwhot", "h", i, 10_000);
        }
        assertThatThrownBy(() -> c.batchWriteItem(b -> b.requestItems(Map.of(
                        "bwhot",
                        List.of(WriteRequest.builder()
                                .putRequest(p -> p.item(Map.of("PK", s("h"), "SK", s("x"))))
                                .build())))))
                .isInstanceOfSatisfying(
                        ThrottlingException.class,
                        e -> assertThat(e.throttlingReasons())
                                .containsExactly(reason("TableWriteKeyRangeThroughputExceeded", ARN_PREFIX + "bwhot")));
    }

    @Test
    void batchGetHandsThrottledKeysBackAndFailsWhenNoneCouldBeRead() {
        provisioned(c, "bget", 1, 5);
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            put(c, "bget", "b" + i, 100);
            keys.add(key("b" + i));
        }
        for (int i = 0; i < BURST_SECONDS - 2; i++) {
            get(c, "bget", "b0");
        }
        KeysAndAttributes request =
                KeysAndAttributes.builder().keys(keys).consistentRead(true).build();
        BatchGetItemResponse r = c.batchGetItem(b -> b.requestItems(Map.of("bget", request)));
        assertThat(r.responses().get("bget")).hasSize(2);
        assertThat(r.unprocessedKeys())
                .isEqualTo(Map.of(
                        "bget", request.toBuilder().keys(keys.subList(2, 4)).build()));

        assertProvisionedThrottle(
                () -> c.batchGetItem(b -> b.requestItems(r.unprocessedKeys())),
                "TableReadProvisionedThroughputExceeded",
                ARN_PREFIX + "bget");
    }

    // ---- helpers ----

    private static void assertProvisionedThrottle(ThrowingCallable call, String reason, String resource) {
        assertProvisionedThrottle(call, TABLE_MESSAGE, reason, resource);
    }

    private static void assertProvisionedThrottle(
            ThrowingCallable call, String message, String reason, String resource) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ProvisionedThroughputExceededException");
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
            assertThat(e.throttlingReasons()).containsExactly(reason(reason, resource));
        });
    }

    private static ThrottlingReason reason(String reason, String resource) {
        return ThrottlingReason.builder().reason(reason).resource(resource).build();
    }

    private static void provisioned(DynamoDbClient client, String table, long rcu, long wcu) {
        provisioned(client, table, rcu, wcu, Map.of());
    }

    private static void provisioned(DynamoDbClient client, String table, long rcu, long wcu, Map<String, String> tags) {
        client.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("PK").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                .provisionedThroughput(t -> t.readCapacityUnits(rcu).writeCapacityUnits(wcu))
                .tags(tags(tags)));
    }

    private static void onDemand(DynamoDbClient client, String table, Map<String, String> tags) {
        client.createTable(b -> b.tableName(table)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .tags(tags(tags)));
    }

    private static List<Tag> tags(Map<String, String> tags) {
        List<Tag> out = new ArrayList<>();
        tags.forEach((k, v) -> out.add(Tag.builder().key(k).value(v).build()));
        return out.isEmpty() ? null : out;
    }

    /** An item of about {@code bytes} bytes: key plus one string attribute. */
    private static Map<String, AttributeValue> item(String pk, int bytes) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("PK", s(pk));
        item.put("v", s("x".repeat(bytes)));
        return item;
    }

    private static void put(DynamoDbClient client, String table, String pk, int bytes) {
        client.putItem(b -> b.tableName(table).item(item(pk, bytes)));
    }

    /**
     * Puts count items of about {@code bytes} bytes, pk prefix0..prefix(count-1), 25 to a
     * BatchWriteItem: each is admitted and charged on its own, as if put one by one.
     */
    private static void putMany(DynamoDbClient client, String table, String prefix, int count, int bytes) {
        for (int from = 0; from < count; from += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 25); i++) {
                Map<String, AttributeValue> item = item(prefix + i, bytes);
                batch.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
            }
            assertThat(client.batchWriteItem(b -> b.requestItems(Map.of(table, batch)))
                            .unprocessedItems())
                    .isEmpty();
        }
    }

    private static void putSorted(DynamoDbClient client, String table, String pk, int sk, int bytes) {
        client.putItem(b ->
                b.tableName(table).item(Map.of("PK", s(pk), "SK", s(Integer.toString(sk)), "v", s("x".repeat(bytes)))));
    }

    private static Map<String, AttributeValue> get(DynamoDbClient client, String table, String pk) {
        return client.getItem(b -> b.tableName(table).key(key(pk)).consistentRead(true))
                .item();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("PK", s(pk));
    }

    private static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }
}
