package dev.kumiko.server;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Which of two problems in one request DynamoDB reports: CreateTable's keys before its throughput;
 * members that do not go together before a malformed AttributeValue.
 */
class ValidationOrderMoreTest {
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void createTableJudgesIndexKeysBeforeThroughput() {
        // Provisioned without any throughput, and an LSI on another hash key: the key wins.
        assertValidation(
                () -> c.createTable(b -> b.tableName("order-lsi")
                        .billingMode(BillingMode.PROVISIONED)
                        .attributeDefinitions(
                                a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("other").attributeType(ScalarAttributeType.S))
                        .keySchema(
                                k -> k.attributeName("pk").keyType(KeyType.HASH),
                                k -> k.attributeName("sk").keyType(KeyType.RANGE))
                        .localSecondaryIndexes(x -> x.indexName("lsi")
                                .keySchema(
                                        k -> k.attributeName("other").keyType(KeyType.HASH),
                                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))),
                "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key "
                        + "as table KeySchema for index: lsi. index hash key: other, table hash key: pk");
        // Throughput over the account limit, and a GSI whose first key element is a RANGE key.
        assertValidation(
                () -> c.createTable(b -> b.tableName("order-gsi")
                        .billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(
                                t -> t.readCapacityUnits(1_000_000L).writeCapacityUnits(1L))
                        .attributeDefinitions(
                                a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                        .globalSecondaryIndexes(x -> x.indexName("gsi")
                                .keySchema(k -> k.attributeName("g").keyType(KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                                .provisionedThroughput(
                                        t -> t.readCapacityUnits(1L).writeCapacityUnits(1L)))),
                "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }

    @Test
    void aBadCombinationOfMembersWinsOverAMalformedAttributeValue() {
        Fixtures.createTable(c, "combos");
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> badKey =
                Map.of("PK", n("not-a-number"), "SK", s("b"));
        assertValidation(
                () -> c.getItem(b -> b.tableName("combos").key(badKey).expressionAttributeNames(Map.of("#a", "a"))),
                "ExpressionAttributeNames can only be specified when using expressions");
        assertValidation(
                () -> c.deleteItem(
                        b -> b.tableName("combos").key(badKey).expressionAttributeValues(Map.of(":v", s("1")))),
                "ExpressionAttributeValues can only be specified when using expressions");
        assertValidation(
                () -> c.putItem(b -> b.tableName("combos")
                        .item(badKey)
                        .conditionExpression("attribute_exists(PK)")
                        .expected(Map.of(
                                "x",
                                ExpectedAttributeValue.builder().exists(false).build()))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}");
        assertValidation(
                () -> c.scan(b -> b.tableName("combos")
                        .projectionExpression("a")
                        .scanFilter(Map.of(
                                "x",
                                Condition.builder()
                                        .comparisonOperator(ComparisonOperator.EQ)
                                        .attributeValueList(n("not-a-number"))
                                        .build()))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {ScanFilter} Expression parameters: {ProjectionExpression}");
        // With nothing wrong in the combination, the malformed value is what is reported.
        String malformed =
                badValueMessage(() -> c.getItem(b -> b.tableName("combos").key(badKey)));
        assertValidation(
                () -> c.query(b -> b.tableName("combos")
                        .keyConditions(Map.of(
                                "PK",
                                Condition.builder()
                                        .comparisonOperator(ComparisonOperator.EQ)
                                        .attributeValueList(n("not-a-number"))
                                        .build()))
                        .filterExpression("attribute_exists(a)")),
                malformed);
    }

    @Test
    void batchesWithoutRequestItemsGetDynamoDbsSentenceBeforeAnyConstraint() {
        assertValidation(
                () -> c.batchWriteItem(b -> b.requestItems(Map.of())),
                "The requestItems parameter is required for BatchWriteItem");
        assertValidation(
                () -> c.batchWriteItem(b -> b.returnConsumedCapacity("hi")),
                "The requestItems parameter is required for BatchWriteItem");
        assertValidation(
                () -> c.batchGetItem(b -> b.requestItems(Map.of())),
                "The requestItems parameter is required for BatchGetItem");
    }

    @Test
    void anOnDemandTablesGsiTakesNoThroughputUpdate() {
        c.createTable(b -> b.tableName("od-gsi")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .globalSecondaryIndexes(x -> x.indexName("gsi1")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        String message = "One or more parameter values were invalid: The only Updates for index: gsi1 when "
                + "TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput";
        assertValidation(
                () -> c.updateTable(b -> b.tableName("od-gsi")
                        .globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("gsi1")
                                .provisionedThroughput(
                                        t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))))),
                message);
        assertValidation(
                () -> c.updateTable(b ->
                        b.tableName("od-gsi").globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("gsi1")))),
                message);
    }

    @Test
    void billingModeProvisionedAloneOnAProvisionedTableNeedsThroughput() {
        c.createTable(b -> b.tableName("prov-alone")
                .billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
        assertValidation(
                () -> c.updateTable(b -> b.tableName("prov-alone").billingMode(BillingMode.PROVISIONED)),
                "ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
        c.updateTable(b -> b.tableName("prov-alone")
                .billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(2L).writeCapacityUnits(1L)));
    }

    private static String badValueMessage(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        try {
            call.call();
        } catch (software.amazon.awssdk.awscore.exception.AwsServiceException e) {
            org.assertj.core.api.Assertions.assertThat(e.awsErrorDetails().errorCode())
                    .isEqualTo("ValidationException");
            return e.awsErrorDetails().errorMessage();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        throw new AssertionError("no error for a malformed number");
    }
}
