package dev.kumiko.server.streams;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Streams, UpdateTable and the smaller behaviours where Kumiko differed from DynamoDB. */
class FidelityStreamsAndTablesTest {
    static TestServer server;
    static DynamoDbClient c;
    static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        streams = StreamsClients.of(server);
        Fixtures.createTable(c, "fst");
    }

    @AfterAll
    static void stop() {
        streams.close();
        server.close();
    }

    @Test
    void iteratorAtTheShardsOwnStartingSequenceNumberBeforeAnyRecord() {
        dev.kumiko.server.streams.StreamsTest.createTable(c, "fst_empty", StreamViewType.KEYS_ONLY);
        String arn = StreamsClients.streamArn(server, "fst_empty");
        var shard = StreamsClients.shards(streams, arn).get(0);
        String start = shard.sequenceNumberRange().startingSequenceNumber();
        for (ShardIteratorType type :
                List.of(ShardIteratorType.AT_SEQUENCE_NUMBER, ShardIteratorType.AFTER_SEQUENCE_NUMBER)) {
            String iterator = streams.getShardIterator(b -> b.streamArn(arn)
                            .shardId(shard.shardId())
                            .shardIteratorType(type)
                            .sequenceNumber(start))
                    .shardIterator();
            c.putItem(b ->
                    b.tableName("fst_empty").item(dev.kumiko.server.streams.StreamsTest.item(type.toString(), "x")));
            var records = streams.getRecords(b -> b.shardIterator(iterator)).records();
            assertThat(records).as(type.toString()).isNotEmpty();
        }
    }

    @Test
    void listStreamsAfterAnUnknownStreamArnIsNotFound() {
        dev.kumiko.server.streams.StreamsTest.createTable(c, "fst_listed", StreamViewType.KEYS_ONLY);
        String arn = StreamsClients.streamArn(server, "fst_listed");
        String unknown = arn.substring(0, arn.lastIndexOf('/') + 1) + "2000-01-01T00:00:00.000";
        assertError(
                () -> streams.listStreams(b -> b.exclusiveStartStreamArn(unknown)),
                "ResourceNotFoundException",
                "Requested resource not found: Stream: " + unknown + " not found");
        assertThat(streams.listStreams(b -> b.exclusiveStartStreamArn(arn)).streams())
                .noneMatch(s -> s.streamArn().equals(arn));
    }

    /**
     * A caller paging through ListStreams hands back the LastEvaluatedStreamArn it was given. If that
     * stream's table has been deleted in between, DynamoDB still has the stream (DISABLED, deleted
     * after 24 hours, says the DeleteTable reference), so the listing goes on after it.
     */
    @Test
    void listStreamsGoesOnAfterTheStreamOfADeletedTable() {
        dev.kumiko.server.streams.StreamsTest.createTable(c, "fst_paged_a", StreamViewType.KEYS_ONLY);
        dev.kumiko.server.streams.StreamsTest.createTable(c, "fst_paged_b", StreamViewType.KEYS_ONLY);
        String gone = StreamsClients.streamArn(server, "fst_paged_a");
        String next = StreamsClients.streamArn(server, "fst_paged_b");
        c.deleteTable(b -> b.tableName("fst_paged_a"));
        var page = streams.listStreams(b -> b.exclusiveStartStreamArn(gone));
        assertThat(page.streams())
                .anyMatch(s -> s.streamArn().equals(next))
                .noneMatch(s -> s.streamArn().equals(gone) || s.tableName().compareTo("fst_paged_a") < 0);
    }

    @Test
    void shardFilterNeedsTypeAndShardId() {
        dev.kumiko.server.streams.StreamsTest.createTable(c, "fst_filter", StreamViewType.KEYS_ONLY);
        String arn = StreamsClients.streamArn(server, "fst_filter");
        String shard = StreamsClients.shards(streams, arn).get(0).shardId();
        assertValidation(
                () -> streams.describeStream(b -> b.streamArn(arn).shardFilter(f -> f.shardId(shard))),
                "1 validation error detected: Value null at 'shardFilter.type' failed to satisfy constraint: "
                        + "Member must not be null");
        assertValidation(
                () -> streams.describeStream(
                        b -> b.streamArn(arn).shardFilter(f -> f.type(ShardFilterType.CHILD_SHARDS))),
                "1 validation error detected: Value null at 'shardFilter.shardId' failed to satisfy constraint: "
                        + "Member must not be null");
    }

    @Test
    void provisionedBillingModeWithUnchangedThroughputChangesNothing() {
        c.createTable(b -> b.tableName("fst_prov")
                .attributeDefinitions(a -> a.attributeName("PK").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
        assertValidation(
                () -> c.updateTable(b -> b.tableName("fst_prov")
                        .billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L))),
                "The provisioned throughput for the table will not change. The requested value equals the current "
                        + "value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: "
                        + "5. Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5."
                        + " Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher "
                        + "limits.");
    }

    @Test
    void attributeTypeOfAValue() {
        var key = Map.of("PK", s("at"), "SK", s("1"));
        c.putItem(b -> b.tableName("fst")
                .item(key)
                .conditionExpression("attribute_type(:v, :t)")
                .expressionAttributeValues(Map.of(":v", n("1"), ":t", s("N"))));
        assertThat(c.getItem(b -> b.tableName("fst").key(key)).hasItem()).isTrue();
    }

    @Test
    void appendsPastTheEndApplyInIndexOrder() {
        var key = Map.of("PK", s("idx"), "SK", s("1"));
        c.updateItem(b -> b.tableName("fst")
                .key(key)
                .updateExpression("SET l = :l")
                .expressionAttributeValues(Map.of(
                        ":l",
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.builder()
                                .l(n("0"))
                                .build())));
        c.updateItem(b -> b.tableName("fst")
                .key(key)
                .updateExpression("SET l[20] = :b, l[10] = :a")
                .expressionAttributeValues(Map.of(":a", n("1"), ":b", n("2"))));
        assertThat(c.getItem(b -> b.tableName("fst").key(key).consistentRead(true))
                        .item()
                        .get("l")
                        .l())
                .containsExactly(n("0"), n("1"), n("2"));
    }

    @Test
    void cancellationReasonsSayNoneForItemsThatDidNotFail() {
        var key = Map.of("PK", s("tx"), "SK", s("1"));
        try {
            c.transactWriteItems(b -> b.transactItems(
                    t -> t.put(p -> p.tableName("fst").item(Map.of("PK", s("tx"), "SK", s("0")))),
                    t -> t.conditionCheck(k -> k.tableName("fst").key(key).conditionExpression("attribute_exists(PK)")),
                    t -> t.update(u -> u.tableName("fst")
                            .key(Map.of("PK", s("tx"), "SK", s("2")))
                            .updateExpression("REMOVE a.b"))));
            throw new AssertionError("expected a cancellation");
        } catch (TransactionCanceledException e) {
            assertThat(e.cancellationReasons())
                    .extracting(r -> r.code())
                    .containsExactly("None", "ConditionalCheckFailed", "None");
            assertThat(e.cancellationReasons().get(0).message()).isNull();
        } catch (AwsServiceException e) {
            throw e;
        }
    }

    @Test
    void gsiBackfillSkipsItemsWhoseIndexKeyIsTooLong() throws InterruptedException {
        Fixtures.createTable(c, "fst_backfill");
        c.putItem(b ->
                b.tableName("fst_backfill").item(Map.of("PK", s("long"), "SK", s("1"), "g", s("x".repeat(2049)))));
        c.putItem(b -> b.tableName("fst_backfill").item(Map.of("PK", s("ok"), "SK", s("1"), "g", s("fine"))));
        c.updateTable(b -> b.tableName("fst_backfill")
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .globalSecondaryIndexUpdates(u -> u.create(g -> g.indexName("byG")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))));
        dev.kumiko.server.indexes.GsiLifecycleTest.awaitActive(c, "fst_backfill", "byG");
        var scanned = c.scan(b -> b.tableName("fst_backfill").indexName("byG"));
        assertThat(scanned.items()).extracting(i -> i.get("PK").s()).containsExactly("ok");
    }

    @Test
    void deleteTableAnswersDynamoDbsShorterDescription() {
        Fixtures.createTable(c, "fst_deleted");
        var d = c.deleteTable(b -> b.tableName("fst_deleted")).tableDescription();
        assertThat(d.tableName()).isEqualTo("fst_deleted");
        assertThat(d.tableStatusAsString()).isEqualTo("DELETING");
        assertThat(d.tableArn()).endsWith(":table/fst_deleted");
        assertThat(d.itemCount()).isZero();
        assertThat(d.hasKeySchema()).isFalse();
        assertThat(d.hasAttributeDefinitions()).isFalse();
        assertThat(d.creationDateTime()).isNull();
    }

    @Test
    void lsiFetchesAreChargedToTheTable() {
        c.createTable(b -> b.tableName("fst_lsi")
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("ls").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .localSecondaryIndexes(l -> l.indexName("byLs")
                        .keySchema(
                                k -> k.attributeName("PK").keyType(KeyType.HASH),
                                k -> k.attributeName("ls").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        c.putItem(b -> b.tableName("fst_lsi").item(Map.of("PK", s("p"), "SK", s("1"), "ls", s("a"), "body", s("b"))));
        var page = c.query(b -> b.tableName("fst_lsi")
                .indexName("byLs")
                .select(Select.ALL_ATTRIBUTES)
                .keyConditionExpression("PK = :p")
                .expressionAttributeValues(Map.of(":p", s("p")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(page.items()).hasSize(1);
        assertThat(page.consumedCapacity().localSecondaryIndexes().get("byLs").capacityUnits())
                .isEqualTo(0.5);
        assertThat(page.consumedCapacity().table().capacityUnits()).isEqualTo(0.5);
        assertThat(page.consumedCapacity().capacityUnits()).isEqualTo(1.0);
    }
}
