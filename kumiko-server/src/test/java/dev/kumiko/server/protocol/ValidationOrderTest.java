package dev.kumiko.server.protocol;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;

import dev.kumiko.server.ErrorAssertions;
import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * DynamoDB validates what a request says on its own (expressions, Expected, item size, Limit)
 * before it looks the table up: these requests name a table that does not exist and still get
 * the ValidationException, not ResourceNotFoundException.
 */
class ValidationOrderTest {
    private static final String MISSING = "no_such_table";
    private static final String UNUSED =
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}";
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "present");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static final Map<String, AttributeValue> KEY = Map.of("PK", s("a"), "SK", s("b"));
    private static final Map<String, AttributeValue> UNUSED_VALUES = Map.of(":v", n("1"), ":unused", n("2"));

    @Test
    void putItem() {
        assertValidation(
                () -> c.putItem(b -> b.tableName(MISSING)
                        .item(KEY)
                        .conditionExpression("a = :v")
                        .expressionAttributeValues(UNUSED_VALUES)),
                UNUSED);
        var big = Map.of("PK", s("a"), "SK", s("b"), "data", s("x".repeat(410_000)));
        assertValidation(
                () -> c.putItem(b -> b.tableName(MISSING).item(big)),
                "Item size has exceeded the maximum allowed size");
        assertValidation(
                () -> c.putItem(b -> b.tableName(MISSING)
                        .item(KEY)
                        .conditionExpression("a = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))
                        .expected(Map.of(
                                "a",
                                ExpectedAttributeValue.builder().exists(false).build()))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}");
    }

    @Test
    void deleteItem() {
        assertValidation(
                () -> c.deleteItem(b -> b.tableName(MISSING)
                        .key(KEY)
                        .conditionExpression("a = :v")
                        .expressionAttributeValues(UNUSED_VALUES)),
                UNUSED);
    }

    @Test
    void updateItem() {
        assertValidation(
                () -> c.updateItem(b -> b.tableName(MISSING)
                        .key(KEY)
                        .updateExpression("SET a = :v")
                        .expressionAttributeValues(UNUSED_VALUES)),
                UNUSED);
    }

    @Test
    void updateItemStillRefusesKeyUpdatesOnAnExistingTable() {
        ErrorAssertions.assertError(
                () -> c.updateItem(b -> b.tableName("present")
                        .key(KEY)
                        .updateExpression("SET PK = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                "ValidationException",
                "One or more parameter values were invalid: Cannot update attribute PK. "
                        + "This attribute is part of the key");
    }

    @Test
    void getItemQueryAndScan() {
        assertValidation(
                () -> c.getItem(b -> b.tableName(MISSING).key(KEY).projectionExpression("#x")),
                "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined;"
                        + " attribute name: #x");
        assertValidation(
                () -> c.query(b -> b.tableName(MISSING)
                        .keyConditionExpression("PK = :v")
                        .expressionAttributeValues(UNUSED_VALUES)),
                UNUSED);
        assertValidation(
                () -> c.scan(
                        b -> b.tableName(MISSING).filterExpression("a = :v").expressionAttributeValues(UNUSED_VALUES)),
                UNUSED);
    }

    @Test
    void aQueryWithoutAKeyConditionIsRefusedBeforeTheTable() {
        String message =
                "Either the KeyConditions or KeyConditionExpression parameter must be specified in the " + "request.";
        assertValidation(() -> c.query(b -> b.tableName(MISSING)), message);
        assertValidation(
                () -> c.query(b -> b.tableName(MISSING)
                        .filterExpression("a = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))),
                message);
        assertValidation(() -> c.query(b -> b.tableName("present")), message);
    }

    @Test
    void batchGetItemChecksEveryProjectionBeforeAnyTable() {
        var bad =
                KeysAndAttributes.builder().keys(KEY).projectionExpression("#x").build();
        var good = KeysAndAttributes.builder().keys(KEY).build();
        Map<String, KeysAndAttributes> missingFirst = new java.util.LinkedHashMap<>();
        missingFirst.put(MISSING, good);
        missingFirst.put("present", bad);
        assertValidation(
                () -> c.batchGetItem(b -> b.requestItems(missingFirst)),
                "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined;"
                        + " attribute name: #x");
    }

    @Test
    void batchGetItemRefusesARepeatedKeyBeforeAnyTable() {
        // A third party's capture against DynamoDB: duplicate keys win over the missing table.
        var twice = KeysAndAttributes.builder().keys(KEY, KEY).build();
        assertValidation(
                () -> c.batchGetItem(b -> b.requestItems(Map.of(MISSING, twice))),
                "Provided list of item keys contains duplicates");
        Map<String, KeysAndAttributes> missingFirst = new java.util.LinkedHashMap<>();
        missingFirst.put(MISSING, KeysAndAttributes.builder().keys(KEY).build());
        missingFirst.put("present", twice);
        assertValidation(
                () -> c.batchGetItem(b -> b.requestItems(missingFirst)),
                "Provided list of item keys contains duplicates");
        // One key in two tables is no duplicate: the missing table answers.
        Map<String, KeysAndAttributes> once = new java.util.LinkedHashMap<>();
        once.put("present", KeysAndAttributes.builder().keys(KEY).build());
        once.put(MISSING, KeysAndAttributes.builder().keys(KEY).build());
        ErrorAssertions.assertError(
                () -> c.batchGetItem(b -> b.requestItems(once)),
                "ResourceNotFoundException",
                "Requested resource not found");
    }

    @Test
    void batchWriteItemChecksItemNamesBeforeAnyTable() {
        var nested = Map.of("PK", s("a"), "SK", s("b"), "doc", AttributeValue.fromM(Map.of("", s("x"))));
        WriteRequest put =
                WriteRequest.builder().putRequest(p -> p.item(nested)).build();
        assertValidation(
                () -> c.batchWriteItem(b -> b.requestItems(Map.of(MISSING, java.util.List.of(put)))),
                "One or more parameter values were invalid: Empty attribute name");
    }

    @Test
    void batchWriteItemChecksItemSizesBeforeAnyTable() {
        var big = Map.of("PK", s("a"), "SK", s("b"), "data", s("x".repeat(410_000)));
        WriteRequest put = WriteRequest.builder().putRequest(p -> p.item(big)).build();
        assertValidation(
                () -> c.batchWriteItem(b -> b.requestItems(Map.of(MISSING, java.util.List.of(put)))),
                "Item size has exceeded the maximum allowed size");
    }

    @Test
    void malformedTableNamesAreValidationErrorsEverywhere() {
        String tooShort = "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3";
        assertValidation(() -> c.getItem(b -> b.tableName("ab").key(KEY)), tooShort);
        assertValidation(() -> c.putItem(b -> b.tableName("ab").item(KEY)), tooShort);
        assertValidation(
                () -> c.query(b -> b.tableName("ab")
                        .keyConditionExpression("PK = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                tooShort);
        assertValidation(
                () -> c.scan(b -> b.tableName("a b c")),
                "1 validation error detected: Value 'a b c' at "
                        + "'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: "
                        + "[a-zA-Z0-9_.-]+");
        assertValidation(
                () -> c.transactGetItems(
                        b -> b.transactItems(t -> t.get(g -> g.tableName("ab").key(KEY)))),
                "1 validation error detected: Value 'ab' at 'transactItems.1.member.get.tableName' failed to "
                        + "satisfy constraint: Member must have length greater than or equal to 3");
    }
}
