package dev.kumiko.server;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Checks that need the table's schema but no item: nested paths into key attributes, projections
 * a GSI cannot serve, attribute names, a type name in a filter over an empty table, and a GSI
 * Create whose key attribute the request does not define.
 */
class StaticChecksRestTest {
    private static final String TABLE = "static-rest";
    private static final String KEY_PATH =
            "Key attributes must be scalars; list random access '[]' and map lookup " + "'.' are not allowed: ";
    private static final Map<String, AttributeValue> KEY = Map.of("PK", s("a"), "SK", s("b"));
    /** Captured from DynamoDB by a third party (docs/notes/error-messages.md). */
    private static final String TOO_LARGE =
            "1 validation error detected: Attribute name is too large, must be less " + "than 65536 bytes";

    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        c.createTable(b -> b.tableName(TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("h").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("l").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(
                        x -> x.indexName("keys-only")
                                .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)),
                        x -> x.indexName("include")
                                .keySchema(k -> k.attributeName("h").keyType(KeyType.HASH))
                                .projection(p ->
                                        p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("kept")))
                .localSecondaryIndexes(x -> x.indexName("local")
                        .keySchema(
                                k -> k.attributeName("PK").keyType(KeyType.HASH),
                                k -> k.attributeName("l").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aNestedPathIntoAKeyAttributeIsRefused() {
        assertValidation(
                () -> c.getItem(b -> b.tableName(TABLE).key(KEY).projectionExpression("PK.a")), KEY_PATH + "Key: PK");
        assertValidation(
                () -> c.getItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .projectionExpression("x, #s[0]")
                        .expressionAttributeNames(Map.of("#s", "SK"))),
                KEY_PATH + "Key: SK");
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE)
                        .filterExpression("g.x = :v")
                        .expressionAttributeValues(Map.of(":v", s("1")))),
                KEY_PATH + "IndexKey: g");
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :p")
                        .filterExpression("attribute_exists(l[1])")
                        .expressionAttributeValues(Map.of(":p", s("a")))),
                KEY_PATH + "IndexKey: l");
        assertValidation(
                () -> c.putItem(b -> b.tableName(TABLE).item(KEY).conditionExpression("attribute_not_exists(PK.a)")),
                KEY_PATH + "Key: PK");
        assertValidation(
                () -> c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .updateExpression("SET h.x = :v")
                        .expressionAttributeValues(Map.of(":v", s("1")))),
                KEY_PATH + "IndexKey: h");
        assertValidation(
                () -> c.deleteItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .conditionExpression("size(SK.x) > :n")
                        .expressionAttributeValues(Map.of(":n", Fixtures.n(1)))),
                KEY_PATH + "Key: SK");
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(t -> t.conditionCheck(
                        k -> k.tableName(TABLE).key(KEY).conditionExpression("attribute_exists(PK.a)")))),
                KEY_PATH + "Key: PK");
        assertValidation(
                () -> c.transactGetItems(b -> b.transactItems(
                        t -> t.get(g -> g.tableName(TABLE).key(KEY).projectionExpression("g[0]")))),
                KEY_PATH + "IndexKey: g");
        // Top-level key names and nested paths into other attributes stay allowed.
        c.getItem(b -> b.tableName(TABLE).key(KEY).projectionExpression("PK, doc.PK"));
    }

    @Test
    void theScalarKeyCheckComesAfterTheFilterAndStartKeyChecks() {
        Map<String, AttributeValue> p = Map.of(":p", s("a"));
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :p")
                        .filterExpression("SK = :p")
                        .projectionExpression("PK.x")
                        .expressionAttributeValues(p)),
                "Filter Expression can only contain non-primary key attributes: Primary key attribute: SK");
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :p")
                        .filterExpression("PK.x = :p")
                        .expressionAttributeValues(p)),
                "Filter Expression can only contain non-primary key attributes: Primary key attribute: PK");
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :p")
                        .projectionExpression("PK.x")
                        .exclusiveStartKey(Map.of("PK", s("a")))
                        .expressionAttributeValues(p)),
                "The provided starting key is invalid");
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE)
                        .filterExpression("g.x = :p")
                        .exclusiveStartKey(Map.of("PK", s("a")))
                        .expressionAttributeValues(p)),
                "The provided starting key is invalid: The provided key element does not match the schema");
        // With nothing else wrong, the scalar check still answers.
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE)
                        .filterExpression("g.x = :p")
                        .exclusiveStartKey(KEY)
                        .expressionAttributeValues(p)),
                KEY_PATH + "IndexKey: g");
    }

    @Test
    void aGsiCannotProjectWhatItDoesNotHoldWhileAnLsiFetchesIt() {
        c.putItem(b -> b.tableName(TABLE)
                .item(Map.of(
                        "PK", s("p"), "SK", s("1"), "g", s("G"), "h", s("H"), "l", s("L"), "kept", s("k"), "extra",
                        s("o"))));
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .indexName("keys-only")
                        .keyConditionExpression("g = :g")
                        .projectionExpression("PK, extra")
                        .expressionAttributeValues(Map.of(":g", s("G")))),
                "One or more parameter values were invalid: Global secondary index keys-only does not project [extra]");
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE)
                        .indexName("include")
                        .select(Select.SPECIFIC_ATTRIBUTES)
                        .attributesToGet("kept", "extra", "g")),
                "One or more parameter values were invalid: Global secondary index include does not project [extra, g]");
        assertThat(c.query(b -> b.tableName(TABLE)
                                .indexName("include")
                                .keyConditionExpression("h = :h")
                                .projectionExpression("kept, SK")
                                .expressionAttributeValues(Map.of(":h", s("H"))))
                        .items())
                .containsExactly(Map.of("kept", s("k"), "SK", s("1")));
        assertThat(c.query(b -> b.tableName(TABLE)
                                .indexName("local")
                                .keyConditionExpression("PK = :p")
                                .projectionExpression("extra")
                                .expressionAttributeValues(Map.of(":p", s("p"))))
                        .items())
                .containsExactly(Map.of("extra", s("o")));
    }

    @Test
    void attributeNamesHoldOneTo65535Bytes() {
        assertValidation(
                () -> c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("a"), "SK", s("b"), "", s("x")))),
                "One or more parameter values were invalid: Empty attribute name");
        String longest = "n".repeat(65_535);
        c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("a"), "SK", s("b"), longest, s("x"))));
        assertValidation(
                () -> c.putItem(
                        b -> b.tableName(TABLE).item(Map.of("PK", s("a"), "SK", s("b"), longest + "n", s("x")))),
                TOO_LARGE);
        assertValidation(
                () -> c.getItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .projectionExpression("#a")
                        .expressionAttributeNames(Map.of("#a", ""))),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a");
        assertValidation(
                () -> c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .updateExpression("SET #a = :v")
                        .expressionAttributeNames(Map.of("#a", longest + "n"))
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                TOO_LARGE);
        assertValidation(
                () -> c.transactWriteItems(b ->
                        b.transactItems(t -> t.put(p -> p.tableName(TABLE).item(Map.of("PK", s("a"), "", s("x")))))),
                "One or more parameter values were invalid: Empty attribute name");
    }

    @Test
    void theNamesInsideMapsAndAttributeUpdatesHoldOneTo65535BytesToo() {
        String longest = "n".repeat(65_535);
        AttributeValue fits = AttributeValue.fromM(Map.of(longest, s("x")));
        AttributeValue tooLarge = AttributeValue.fromL(List.of(
                AttributeValue.fromM(Map.of("m", AttributeValue.fromM(Map.of(longest + "n", s("x")))))));
        AttributeValue empty = AttributeValue.fromM(Map.of("", s("x")));
        c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("a"), "SK", s("b"), "doc", fits)));
        assertValidation(
                () -> c.putItem(b -> b.tableName(TABLE).item(Map.of("PK", s("a"), "SK", s("b"), "doc", tooLarge))),
                TOO_LARGE);
        assertValidation(
                () -> c.putItem(b -> b.tableName("no-such-table").item(Map.of("PK", s("a"), "doc", empty))),
                "One or more parameter values were invalid: Empty attribute name");
        assertValidation(
                () -> c.batchWriteItem(b -> b.requestItems(Map.of(
                        TABLE,
                        List.of(WriteRequest.builder()
                                .putRequest(p -> p.item(Map.of("PK", s("a"), "SK", s("b"), "doc", tooLarge)))
                                .build())))),
                TOO_LARGE);
        assertValidation(
                () -> c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .updateExpression("SET doc = :v")
                        .expressionAttributeValues(Map.of(":v", tooLarge))),
                TOO_LARGE);
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(t -> t.update(u -> u.tableName(TABLE)
                        .key(KEY)
                        .updateExpression("SET doc = :v")
                        .expressionAttributeValues(Map.of(":v", empty))))),
                "One or more parameter values were invalid: Empty attribute name");
        assertValidation(
                () -> c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .attributeUpdates(Map.of(
                                "",
                                AttributeValueUpdate.builder()
                                        .action(AttributeAction.PUT)
                                        .value(s("x"))
                                        .build()))),
                "One or more parameter values were invalid: Empty attribute name");
        assertValidation(
                () -> c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .attributeUpdates(Map.of(
                                "doc",
                                AttributeValueUpdate.builder()
                                        .action(AttributeAction.PUT)
                                        .value(tooLarge)
                                        .build()))),
                TOO_LARGE);
        assertThat(c.getItem(b -> b.tableName(TABLE).key(KEY)).item()).containsEntry("doc", fits);
    }

    @Test
    void aBadTypeNameInAFilterIsRefusedEvenWhenNoItemIsRead() {
        String message = "Invalid FilterExpression: Invalid attribute type name found; type: X, valid types: "
                + "{ B, NULL, SS, BOOL, L, BS, N, NS, S, M }";
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :p")
                        .filterExpression("attribute_type(a, :t)")
                        .expressionAttributeValues(Map.of(":p", s("nothing-here"), ":t", s("X")))),
                message);
        assertValidation(
                () -> c.scan(b -> b.tableName("NoSuchTable")
                        .filterExpression("attribute_type(a, :t)")
                        .expressionAttributeValues(Map.of(":t", s("X")))),
                message);
    }

    @Test
    void aGsiCreateNeedsItsKeyAttributesInTheRequestsDefinitions() {
        assertValidation(
                () -> c.updateTable(b -> b.tableName(TABLE)
                        .attributeDefinitions(a -> a.attributeName("x").attributeType(ScalarAttributeType.S))
                        .globalSecondaryIndexUpdates(u -> u.create(x -> x.indexName("by-sk")
                                .keySchema(k -> k.attributeName("SK").keyType(KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))))),
                "One or more parameter values were invalid: Some index key attributes are not defined in "
                        + "AttributeDefinitions. Keys: [SK], AttributeDefinitions: [x]");
    }
}
