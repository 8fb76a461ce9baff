package dev.kumiko.server.protocol;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/** More checks DynamoDB makes on the request alone: types in functions and lists, path depth, tags, keys. */
class StaticChecksMoreTest {
    private static final String TABLE = "static-more";
    private static final Map<String, AttributeValue> KEY = Map.of("PK", s("a"), "SK", s("b"));
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, TABLE);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void attributeTypeTakesItsTypeFromAValueNotAPath() {
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE).filterExpression("attribute_type(a, b)")),
                "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: "
                        + "attribute_type, operand type: path; the type must be an expression attribute value");
        c.scan(b -> b.tableName(TABLE)
                .filterExpression("attribute_type(a, :t)")
                .expressionAttributeValues(Map.of(":t", s("S"))));
    }

    @Test
    void inAndBetweenListsHoldOneType() {
        String message = "One or more parameter values were invalid: AttributeValues inside AttributeValueList must "
                + "be of same type";
        assertValidation(
                () -> c.putItem(b -> b.tableName(TABLE)
                        .item(KEY)
                        .expected(Map.of(
                                "x",
                                ExpectedAttributeValue.builder()
                                        .comparisonOperator(ComparisonOperator.IN)
                                        .attributeValueList(s("1"), n("1"))
                                        .build()))),
                message);
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditions(Map.of(
                                "PK",
                                Condition.builder()
                                        .comparisonOperator(ComparisonOperator.EQ)
                                        .attributeValueList(s("a"))
                                        .build()))
                        .queryFilter(Map.of(
                                "x",
                                Condition.builder()
                                        .comparisonOperator(ComparisonOperator.BETWEEN)
                                        .attributeValueList(n("1"), s("2"))
                                        .build()))),
                message);
        c.scan(b -> b.tableName(TABLE)
                .scanFilter(Map.of(
                        "x",
                        Condition.builder()
                                .comparisonOperator(ComparisonOperator.IN)
                                .attributeValueList(s("1"), s("2"))
                                .build())));
    }

    @Test
    void aDocumentPathIsAtMost32Deep() {
        String deep32 = String.join(".", java.util.Collections.nCopies(32, "a"));
        c.getItem(b -> b.tableName(TABLE).key(KEY).projectionExpression(deep32));
        assertValidation(
                () -> c.getItem(b -> b.tableName(TABLE).key(KEY).projectionExpression(deep32 + "[0]")),
                "Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 33");
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE).filterExpression("attribute_exists(" + deep32 + ".b)")),
                "Invalid FilterExpression: The document path has too many nesting levels; nesting levels: 33");
    }

    @Test
    void projectionPathsMayNotOverlap() {
        assertValidation(
                () -> c.getItem(b -> b.tableName(TABLE).key(KEY).projectionExpression("a, a.b")),
                "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite "
                        + "one of these paths; path one: [a], path two: [a, b]");
    }

    @Test
    void sizeOfANumberIsAnErrorInTheRequestAndFalseOnAnItem() {
        // Tested against DynamoDB by a third party (scylladb/scylladb#14592): a number known from
        // the request is a ValidationException, one read from the item makes the comparison false.
        String message = "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or "
                + "function: size, operand type: N";
        Map<String, AttributeValue> item = Map.of("PK", s("size"), "SK", s("n"), "num", n("12345"));
        c.putItem(b -> b.tableName(TABLE).item(item));
        assertValidation(
                () -> c.putItem(b -> b.tableName(TABLE)
                        .item(item)
                        .conditionExpression("size(:v) > :z")
                        .expressionAttributeValues(Map.of(":v", n("1"), ":z", n("0")))),
                message);
        assertValidation(
                () -> c.putItem(b -> b.tableName(TABLE)
                        .item(item)
                        .conditionExpression("size(size(num)) > :z")
                        .expressionAttributeValues(Map.of(":z", n("0")))),
                message);
        assertError(
                () -> c.putItem(b -> b.tableName(TABLE)
                        .item(item)
                        .conditionExpression("size(num) > :z")
                        .expressionAttributeValues(Map.of(":z", n("0")))),
                "ConditionalCheckFailedException",
                "The conditional request failed");
        org.assertj.core.api.Assertions.assertThat(c.query(b -> b.tableName(TABLE)
                                .keyConditionExpression("PK = :p")
                                .filterExpression("size(num) >= :z")
                                .expressionAttributeValues(Map.of(":p", s("size"), ":z", n("0"))))
                        .count())
                .isZero();
    }

    @Test
    void listAppendMayNotNestListAppend() {
        assertValidation(
                () -> c.updateItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .updateExpression("SET l = list_append(list_append(l, :a), :a)")
                        .expressionAttributeValues(Map.of(":a", AttributeValue.fromL(List.of(n("1")))))),
                "Invalid UpdateExpression: The function is not allowed to be used this way in an expression; "
                        + "function: list_append");
        c.updateItem(b -> b.tableName(TABLE)
                .key(KEY)
                .updateExpression("SET l = list_append(if_not_exists(l, :e), :a)")
                .expressionAttributeValues(
                        Map.of(":a", AttributeValue.fromL(List.of(n("1"))), ":e", AttributeValue.fromL(List.of()))));
    }

    @Test
    void anExclusiveStartKeyNeedsItsSortKey() {
        assertValidation(
                () -> c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :p")
                        .expressionAttributeValues(Map.of(":p", s("a")))
                        .exclusiveStartKey(Map.of("PK", s("a")))),
                "The provided starting key is invalid");
        assertValidation(
                () -> c.scan(b -> b.tableName(TABLE).exclusiveStartKey(Map.of("PK", s("a")))),
                "The provided starting key is invalid: The provided key element does not match the schema");
    }

    @Test
    void aResourceHoldsAtMost50Tags() {
        String arn = c.describeTable(b -> b.tableName(TABLE)).table().tableArn();
        List<Tag> tags = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            tags.add(Tag.builder().key("k" + i).value("v").build());
        }
        assertError(
                () -> c.tagResource(b -> b.resourceArn(arn).tags(tags)),
                "LimitExceededException",
                "The number of tags exceeds the limit of 50 per resource");
        c.tagResource(b -> b.resourceArn(arn).tags(tags.subList(0, 50)));
    }

    @Test
    void oversizedTagsAtCreationAreValidationErrors() {
        // The Tag shape's constraints (API Reference): Key 1..128, Value 0..256 characters.
        assertValidation(
                () -> c.createTable(b -> b.tableName("static-more-tags")
                        .billingMode("PAY_PER_REQUEST")
                        .attributeDefinitions(a -> a.attributeName("PK").attributeType("S"))
                        .keySchema(k -> k.attributeName("PK").keyType("HASH"))
                        .tags(t -> t.key("k".repeat(129)).value("v"))),
                "1 validation error detected: Value '" + "k".repeat(129) + "' at 'tags.1.member.key' failed to "
                        + "satisfy constraint: Member must have length less than or equal to 128");
        assertValidation(
                () -> c.createTable(b -> b.tableName("static-more-tags")
                        .billingMode("PAY_PER_REQUEST")
                        .attributeDefinitions(a -> a.attributeName("PK").attributeType("S"))
                        .keySchema(k -> k.attributeName("PK").keyType("HASH"))
                        .tags(t -> t.key("k").value("v"), t -> t.key("k2").value("v".repeat(257)))),
                "1 validation error detected: Value '" + "v".repeat(257) + "' at 'tags.2.member.value' failed to "
                        + "satisfy constraint: Member must have length less than or equal to 256");
        org.assertj.core.api.Assertions.assertThat(c.listTables().tableNames()).doesNotContain("static-more-tags");
    }

    @Test
    void placeholdersMayHoldUnderscores() {
        // The Developer Guide: "#" then alphanumeric characters; "The underscore (_) character is also allowed."
        c.getItem(b -> b.tableName(TABLE)
                .key(KEY)
                .projectionExpression("#_x, _y")
                .expressionAttributeNames(Map.of("#_x", "x")));
        assertValidation(
                () -> c.getItem(b -> b.tableName(TABLE)
                        .key(KEY)
                        .projectionExpression("#x-y")
                        .expressionAttributeNames(Map.of("#x-y", "x"))),
                "ExpressionAttributeNames contains invalid key: Syntax error; key: \"#x-y\"");
    }

    @Test
    void aGsiCreateThatRedeclaresAKeyTypeKeepsTheStoredType() {
        // Characterised against AWS by a third party: accepted, the stored type is kept.
        String table = "static-more-gsi";
        Fixtures.createTable(c, table);
        c.updateTable(b -> b.tableName(table)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType("N"),
                        a -> a.attributeName("G").attributeType("S"))
                .globalSecondaryIndexUpdates(u -> u.create(x -> x.indexName("gsi")
                        .keySchema(k -> k.attributeName("G").keyType("HASH"))
                        .projection(p -> p.projectionType("KEYS_ONLY")))));
        org.assertj.core.api.Assertions.assertThat(
                        c.describeTable(b -> b.tableName(table)).table().attributeDefinitions())
                .anyMatch(a -> a.attributeName().equals("PK")
                        && a.attributeTypeAsString().equals("S"));
        c.putItem(b -> b.tableName(table).item(Map.of("PK", s("x"), "SK", s("y"))));
    }

    @Test
    void aGsiCreateMayNotDefineOneAttributeTwice() {
        String table = "static-more-gsi-twice";
        Fixtures.createTable(c, table);
        assertValidation(
                () -> c.updateTable(b -> b.tableName(table)
                        .attributeDefinitions(
                                a -> a.attributeName("G").attributeType("S"),
                                a -> a.attributeName("G").attributeType("N"))
                        .globalSecondaryIndexUpdates(u -> u.create(x -> x.indexName("gsi")
                                .keySchema(k -> k.attributeName("G").keyType("HASH"))
                                .projection(p -> p.projectionType("KEYS_ONLY"))))),
                "Attribute Name is duplicated: G");
        assertValidation(
                () -> c.createTable(b -> b.tableName("static-more-twice")
                        .billingMode("PAY_PER_REQUEST")
                        .attributeDefinitions(
                                a -> a.attributeName("PK").attributeType("S"),
                                a -> a.attributeName("PK").attributeType("N"))
                        .keySchema(k -> k.attributeName("PK").keyType("HASH"))),
                "Attribute Name is duplicated: PK");
        org.assertj.core.api.Assertions.assertThat(
                        c.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes())
                .isEmpty();
    }

    @Test
    void nonKeyAttributesNamesAreAtMost255Characters() {
        String longName = "n".repeat(256);
        assertValidation(
                () -> c.createTable(b -> b.tableName("static-more-nka")
                        .attributeDefinitions(
                                a -> a.attributeName("PK").attributeType("S"),
                                a -> a.attributeName("G").attributeType("S"))
                        .keySchema(k -> k.attributeName("PK").keyType("HASH"))
                        .billingMode("PAY_PER_REQUEST")
                        .globalSecondaryIndexes(x -> x.indexName("gsi")
                                .keySchema(k -> k.attributeName("G").keyType("HASH"))
                                .projection(p -> p.projectionType("INCLUDE").nonKeyAttributes("ok", longName)))),
                "1 validation error detected: Value '[ok, " + longName + "]' at "
                        + "'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy constraint: "
                        + "Member must satisfy constraint: [Member must have length less than or equal to 255, "
                        + "Member must have length greater than or equal to 1]");
    }

    @Test
    void aGsiCreateMembersPathHasNoListIndex() {
        assertValidation(
                () -> c.updateTable(b -> b.tableName(TABLE)
                        .attributeDefinitions(a -> a.attributeName("G").attributeType("S"))
                        .globalSecondaryIndexUpdates(u -> u.create(x -> x.indexName("g")
                                .keySchema(k -> k.attributeName("G").keyType("HASH"))
                                .projection(p -> p.projectionType("KEYS_ONLY"))))),
                "1 validation error detected: Value 'g' at 'globalSecondaryIndexUpdates.1.member.create.indexName' "
                        + "failed to satisfy constraint: Member must have length greater than or equal to 3");
    }
}
