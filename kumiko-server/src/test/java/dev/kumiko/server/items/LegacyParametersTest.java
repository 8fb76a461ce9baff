package dev.kumiko.server.items;

import static dev.kumiko.server.Fixtures.s;
import static dev.kumiko.server.items.ExpressionOperationsTest.n;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;

/** Expected, AttributeUpdates and AttributesToGet, mapped onto the expression evaluator. */
class LegacyParametersTest {
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "legacy");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void expectedExistsFalseIsCreateIfAbsent() {
        var item = Map.of("PK", s("E1"), "SK", s("A"), "v", n("1"));
        var absent = Map.of("PK", ExpectedAttributeValue.builder().exists(false).build());
        c.putItem(b -> b.tableName("legacy").item(item).expected(absent));
        assertThatThrownBy(() -> c.putItem(b -> b.tableName("legacy").item(item).expected(absent)))
                .isInstanceOf(ConditionalCheckFailedException.class);
        var greater = Map.of(
                "v",
                ExpectedAttributeValue.builder()
                        .comparisonOperator(ComparisonOperator.GT)
                        .attributeValueList(n("0"))
                        .build());
        c.deleteItem(b ->
                b.tableName("legacy").key(Map.of("PK", s("E1"), "SK", s("A"))).expected(greater));
    }

    /**
     * NOT_CONTAINS tests the attribute's value ("absence of a subsequence, or absence of a value in
     * a set"), so it needs the attribute: on a missing one the condition fails, as on DynamoDB. Only
     * NULL is true of a missing attribute. A present attribute without the value passes.
     */
    @Test
    void expectedNotContainsFailsOnAMissingAttribute() {
        var key = Map.of("PK", s("NC1"), "SK", s("A"));
        c.putItem(b -> b.tableName("legacy").item(Map.of("PK", s("NC1"), "SK", s("A"), "tags", s("red,green"))));
        var onMissing = Map.of(
                "colour",
                ExpectedAttributeValue.builder()
                        .comparisonOperator(ComparisonOperator.NOT_CONTAINS)
                        .attributeValueList(s("blue"))
                        .build());
        assertThatThrownBy(() -> c.updateItem(b -> b.tableName("legacy")
                        .key(key)
                        .expected(onMissing)
                        .attributeUpdates(Map.of(
                                "v",
                                AttributeValueUpdate.builder()
                                        .action(AttributeAction.PUT)
                                        .value(n("1"))
                                        .build()))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThatThrownBy(() -> c.deleteItem(b -> b.tableName("legacy")
                        .key(Map.of("PK", s("NC2"), "SK", s("A")))
                        .expected(onMissing)))
                .as("no item at all: the attribute is missing too")
                .isInstanceOf(ConditionalCheckFailedException.class);
        var onPresent = Map.of(
                "tags",
                ExpectedAttributeValue.builder()
                        .comparisonOperator(ComparisonOperator.NOT_CONTAINS)
                        .attributeValueList(s("blue"))
                        .build());
        c.deleteItem(b -> b.tableName("legacy").key(key).expected(onPresent));
        assertThat(c.getItem(b -> b.tableName("legacy").key(key).consistentRead(true))
                        .hasItem())
                .isFalse();
    }

    @Test
    void attributeUpdatesAddAndAttributesToGet() {
        var key = Map.of("PK", s("U1"), "SK", s("A"));
        for (int i = 0; i < 2; i++) {
            c.updateItem(b -> b.tableName("legacy")
                    .key(key)
                    .attributeUpdates(Map.of(
                            "count",
                                    AttributeValueUpdate.builder()
                                            .action(AttributeAction.ADD)
                                            .value(n("5"))
                                            .build(),
                            "name",
                                    AttributeValueUpdate.builder()
                                            .action(AttributeAction.PUT)
                                            .value(s("x"))
                                            .build())));
        }
        var got = c.getItem(b -> b.tableName("legacy").key(key).attributesToGet("count"))
                .item();
        assertThat(got).isEqualTo(Map.of("count", n("10")));
    }

    /** A legacy name is literal, also one that starts with '#' (it is no placeholder there). */
    @Test
    void attributeUpdatesTakeNamesThatStartWithAHashLiterally() {
        var key = Map.of("PK", s("H1"), "SK", s("A"));
        c.updateItem(b -> b.tableName("legacy")
                .key(key)
                .attributeUpdates(Map.of(
                        "#c",
                                AttributeValueUpdate.builder()
                                        .action(AttributeAction.PUT)
                                        .value(s("x"))
                                        .build(),
                        "#d",
                                AttributeValueUpdate.builder()
                                        .action(AttributeAction.DELETE)
                                        .build())));
        assertThat(c.getItem(b -> b.tableName("legacy").key(key).consistentRead(true))
                        .item())
                .isEqualTo(Map.of("PK", s("H1"), "SK", s("A"), "#c", s("x")));
        c.updateItem(b -> b.tableName("legacy")
                .key(key)
                .attributeUpdates(Map.of(
                        "#c",
                        AttributeValueUpdate.builder()
                                .action(AttributeAction.DELETE)
                                .build())));
        assertThat(c.getItem(b -> b.tableName("legacy").key(key).consistentRead(true))
                        .item())
                .isEqualTo(Map.of("PK", s("H1"), "SK", s("A")));
    }

    @Test
    void mixingLegacyAndExpressionParametersIsRefused() {
        var key = Map.of("PK", s("M1"), "SK", s("A"));
        assertThatThrownBy(() -> c.updateItem(b -> b.tableName("legacy")
                        .key(key)
                        .updateExpression("SET a = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))
                        .expected(Map.of(
                                "a",
                                ExpectedAttributeValue.builder().exists(false).build()))))
                .isInstanceOfSatisfying(
                        DynamoDbException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage())
                                .isEqualTo(
                                        "Can not use both expression and non-expression parameters in the same request: "
                                                + "Non-expression parameters: {Expected} Expression parameters: {UpdateExpression}"));
    }
}
