package dev.kumiko.server.protocol;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
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

/** Checks DynamoDB makes on the request alone, before reading any item. */
class StaticChecksTest {
    static TestServer server;
    static DynamoDbClient c;
    private static final Map<String, AttributeValue> KEY = Map.of("PK", s("a"), "SK", s("b"));

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "static");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theFirstOperandMustBeDistinct() {
        assertValidation(
                () -> c.putItem(b -> b.tableName("static")
                        .item(KEY)
                        .conditionExpression("contains(#a, a)")
                        .expressionAttributeNames(Map.of("#a", "a"))),
                "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for "
                        + "this operator or function; operator: contains, first operand: [a]");
        assertValidation(
                () -> c.scan(b -> b.tableName("static").filterExpression("x.y = x.y")),
                "Invalid FilterExpression: The first operand must be distinct from the remaining operands for "
                        + "this operator or function; operator: =, first operand: [x, y]");
    }

    @Test
    void conditionalOperatorMustBeKnownAndHaveConditions() {
        assertValidation(
                () -> c.scan(b -> b.tableName("static")
                        .conditionalOperator("XOR")
                        .scanFilter(Map.of(
                                "a",
                                Condition.builder()
                                        .comparisonOperator(ComparisonOperator.NOT_NULL)
                                        .build()))),
                "1 validation error detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [AND, OR]");
        assertValidation(
                () -> c.putItem(b -> b.tableName("static").item(KEY).conditionalOperator("OR")),
                "One or more parameter values were invalid: ConditionalOperator can only be used when Filter or "
                        + "Expected has two or more elements");
        c.putItem(b -> b.tableName("static")
                .item(KEY)
                .conditionalOperator("OR")
                .expected(Map.of(
                        "a", ExpectedAttributeValue.builder().exists(false).build(),
                        "b", ExpectedAttributeValue.builder().value(n("1")).build())));
    }

    @Test
    void attributesToGetMayNotBeEmptyOrRepeat() {
        assertValidation(
                () -> c.getItem(b -> b.tableName("static").key(KEY).attributesToGet(List.of())),
                "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: Member "
                        + "must have length greater than or equal to 1");
        assertValidation(
                () -> c.scan(b -> b.tableName("static").attributesToGet("a", "a")),
                "One or more parameter values were invalid: Duplicate value in attribute name: a");
    }

    @Test
    void tagsHoldOnlyTheDocumentedCharacters() {
        String arn = c.describeTable(b -> b.tableName("static")).table().tableArn();
        c.tagResource(
                b -> b.resourceArn(arn).tags(t -> t.key("team name_1:/=+-.").value("caf\u00e9 42")));
        assertValidation(
                () -> c.tagResource(
                        b -> b.resourceArn(arn).tags(t -> t.key("bad@key").value("v"))),
                "One or more parameter values were invalid: Invalid tag: key 'bad@key', value 'v'. Tags may contain "
                        + "letters, white space, numbers and + - = . _ : /");
    }
}
