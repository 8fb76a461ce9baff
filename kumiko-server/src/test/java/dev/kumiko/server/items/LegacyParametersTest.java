package dev.kumiko.server.items;

import static dev.kumiko.server.items.ExpressionOperationsTest.n;
import static dev.kumiko.server.Fixtures.s;
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
        var greater = Map.of("v", ExpectedAttributeValue.builder().comparisonOperator(ComparisonOperator.GT)
                .attributeValueList(n("0")).build());
        c.deleteItem(b -> b.tableName("legacy").key(Map.of("PK", s("E1"), "SK", s("A"))).expected(greater));
    }

    @Test
    void attributeUpdatesAddAndAttributesToGet() {
        var key = Map.of("PK", s("U1"), "SK", s("A"));
        for (int i = 0; i < 2; i++) {
            c.updateItem(b -> b.tableName("legacy").key(key).attributeUpdates(Map.of(
                    "count", AttributeValueUpdate.builder().action(AttributeAction.ADD).value(n("5")).build(),
                    "name", AttributeValueUpdate.builder().action(AttributeAction.PUT).value(s("x")).build())));
        }
        var got = c.getItem(b -> b.tableName("legacy").key(key).attributesToGet("count")).item();
        assertThat(got).isEqualTo(Map.of("count", n("10")));
    }

    @Test
    void mixingLegacyAndExpressionParametersIsRefused() {
        var key = Map.of("PK", s("M1"), "SK", s("A"));
        assertThatThrownBy(() -> c.updateItem(b -> b.tableName("legacy").key(key).updateExpression("SET a = :v")
                .expressionAttributeValues(Map.of(":v", n("1")))
                .expected(Map.of("a", ExpectedAttributeValue.builder().exists(false).build()))))
                .isInstanceOfSatisfying(DynamoDbException.class, e -> assertThat(e.awsErrorDetails().errorMessage())
                        .isEqualTo("Can not use both expression and non-expression parameters in the same request: "
                                + "Non-expression parameters: {Expected} Expression parameters: {UpdateExpression}"));
    }
}
