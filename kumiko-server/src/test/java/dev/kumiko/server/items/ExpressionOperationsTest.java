package dev.kumiko.server.items;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/** The seed-004 expression patterns and UpdateItem's semantics, through the SDK. */
class ExpressionOperationsTest {
    static TestServer server;
    static DynamoDbClient c;
    static int tableSeq;
    String table;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private String newTable() {
        table = "expr" + ++tableSeq;
        Fixtures.createTable(c, table);
        return table;
    }

    static AttributeValue n(String v) {
        return AttributeValue.builder().n(v).build();
    }

    private Map<String, AttributeValue> key(String pk) {
        return Map.of("PK", s(pk), "SK", s("A"));
    }

    private Map<String, AttributeValue> get(String pk) {
        return c.getItem(b -> b.tableName(table).key(key(pk)).consistentRead(true))
                .item();
    }

    /**
     * A function operand may stand in parentheses, alone or inside a parenthesised comparison, in a
     * condition and in a filter; the comparison means what it means without them.
     */
    @Test
    void parenthesisedSizeIsAnOperand() {
        newTable();
        c.putItem(b -> b.tableName(table).item(Map.of("PK", s("P1"), "SK", s("A"), "b", s("abc"))));
        var three = Map.of(":b", n("3"));
        var four = Map.of(":b", n("4"));
        for (String condition : List.of(
                "(size(b)) = :b",
                "((size(b)) = :b)",
                ":b = (size(b))",
                "(size(b)) BETWEEN :b AND :b",
                "(size(b)) IN (:b)",
                "NOT (size(b)) <> :b")) {
            c.updateItem(u -> u.tableName(table)
                    .key(key("P1"))
                    .updateExpression("SET n = :b")
                    .conditionExpression(condition)
                    .expressionAttributeValues(three));
            assertThatThrownBy(() -> c.updateItem(u -> u.tableName(table)
                            .key(key("P1"))
                            .updateExpression("SET n = :b")
                            .conditionExpression(condition)
                            .expressionAttributeValues(four)))
                    .as(condition)
                    .isInstanceOf(ConditionalCheckFailedException.class);
            var scanned =
                    c.scan(s -> s.tableName(table).filterExpression(condition).expressionAttributeValues(three));
            assertThat(scanned.count()).as(condition).isEqualTo(1);
        }
        // A parenthesised size() that is not compared is still refused, as a bare size() is.
        assertThatThrownBy(() -> c.scan(s -> s.tableName(table).filterExpression("(size(b))")))
                .isInstanceOfSatisfying(
                        DynamoDbException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage())
                                .isEqualTo(
                                        "Invalid FilterExpression: The function is not allowed to be used this way in an "
                                                + "expression; function: size"));
    }

    @Test
    void createIfAbsentWinsOnceAndReturnsTheOldItemOnRequest() {
        newTable();
        var item = Map.of("PK", s("USER#1"), "SK", s("A"), "name", s("first"));
        c.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(PK)"));
        var again = Map.of("PK", s("USER#1"), "SK", s("A"), "name", s("second"));
        assertThatThrownBy(() -> c.putItem(b -> b.tableName(table)
                        .item(again)
                        .conditionExpression("attribute_not_exists(PK)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))
                .isInstanceOfSatisfying(ConditionalCheckFailedException.class, e -> {
                    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The conditional request failed");
                    assertThat(e.item()).containsEntry("name", s("first"));
                });
        assertThat(get("USER#1")).containsEntry("name", s("first"));
    }

    @Test
    void atomicCounterStartsAtZeroAndCounts() {
        newTable();
        for (int i = 1; i <= 3; i++) {
            var out = c.updateItem(b -> b.tableName(table)
                            .key(key("POST#1"))
                            .updateExpression("SET view_count = if_not_exists(view_count, :zero) + :inc")
                            .expressionAttributeValues(Map.of(":zero", n("0"), ":inc", n("1")))
                            .returnValues(ReturnValue.UPDATED_NEW))
                    .attributes();
            assertThat(out).isEqualTo(Map.of("view_count", n(Integer.toString(i))));
        }
    }

    @Test
    void stockGuardRefusesOverdraw() {
        newTable();
        c.putItem(b -> b.tableName(table).item(Map.of("PK", s("PRODUCT#1"), "SK", s("A"), "stock", n("5"))));
        c.updateItem(b -> b.tableName(table)
                .key(key("PRODUCT#1"))
                .updateExpression("SET stock = stock - :qty")
                .conditionExpression("stock >= :qty")
                .expressionAttributeValues(Map.of(":qty", n("3"))));
        assertThatThrownBy(() -> c.updateItem(b -> b.tableName(table)
                        .key(key("PRODUCT#1"))
                        .updateExpression("SET stock = stock - :qty")
                        .conditionExpression("stock >= :qty")
                        .expressionAttributeValues(Map.of(":qty", n("3")))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(get("PRODUCT#1")).containsEntry("stock", n("2"));
    }

    @Test
    void removeOnlyUpdateOfAMissingItemCreatesNothing() {
        newTable();
        c.updateItem(b -> b.tableName(table).key(key("GHOST")).updateExpression("REMOVE a"));
        assertThat(c.getItem(b -> b.tableName(table).key(key("GHOST"))).hasItem())
                .isFalse();
        c.updateItem(b -> b.tableName(table).key(key("BARE")));
        assertThat(get("BARE")).isEqualTo(key("BARE"));
    }

    @Test
    void returnValuesCoverNestedPaths() {
        newTable();
        c.putItem(b -> b.tableName(table)
                .item(Map.of(
                        "PK",
                        s("P"),
                        "SK",
                        s("A"),
                        "m",
                        AttributeValue.builder()
                                .m(Map.of("x", n("1"), "y", n("2")))
                                .build(),
                        "keep",
                        s("k"))));
        var old = c.updateItem(b -> b.tableName(table)
                        .key(key("P"))
                        .updateExpression("SET m.x = :v")
                        .expressionAttributeValues(Map.of(":v", n("9")))
                        .returnValues(ReturnValue.UPDATED_OLD))
                .attributes();
        assertThat(old)
                .isEqualTo(Map.of(
                        "m", AttributeValue.builder().m(Map.of("x", n("1"))).build()));
        var all = c.updateItem(b -> b.tableName(table)
                        .key(key("P"))
                        .updateExpression("ADD tags :t")
                        .expressionAttributeValues(
                                Map.of(":t", AttributeValue.builder().ss("a").build()))
                        .returnValues(ReturnValue.ALL_NEW))
                .attributes();
        assertThat(all).containsEntry("keep", s("k")).containsKey("tags");
    }

    @Test
    void allNewIsTheItemAsWrittenAndAllOldTheItemAsItWas() {
        newTable();
        c.putItem(b -> b.tableName(table)
                .item(Map.of(
                        "PK",
                        s("P"),
                        "SK",
                        s("A"),
                        "n",
                        n("1"),
                        "gone",
                        s("g"),
                        "m",
                        AttributeValue.builder()
                                .m(Map.of("x", n("1"), "y", s("2")))
                                .build(),
                        "l",
                        AttributeValue.builder().l(s("a"), s("b")).build(),
                        "tags",
                        AttributeValue.builder().ss("t1", "t2").build(),
                        "keep",
                        s("k"))));
        Map<String, AttributeValue> values = Map.of(
                ":one",
                n("1"),
                ":v",
                s("v"),
                ":t",
                AttributeValue.builder().ss("t3").build());
        List<String> updates = List.of(
                "SET n = n + :one, m.x = :v",
                "REMOVE l[0], gone",
                "ADD tags :t",
                "SET added = :v DELETE tags :t",
                "SET l[5] = :v, n = :one",
                "SET keep = :v");
        for (String update : updates) {
            Map<String, AttributeValue> before = get("P");
            var allOld = c.updateItem(b -> b.tableName(table)
                            .key(key("P"))
                            .updateExpression(update)
                            .expressionAttributeValues(used(values, update))
                            .returnValues(ReturnValue.ALL_OLD))
                    .attributes();
            assertThat(allOld).as("ALL_OLD of %s", update).isEqualTo(before);
            c.putItem(b -> b.tableName(table).item(before));
            var allNew = c.updateItem(b -> b.tableName(table)
                            .key(key("P"))
                            .updateExpression(update)
                            .expressionAttributeValues(used(values, update))
                            .returnValues(ReturnValue.ALL_NEW))
                    .attributes();
            assertThat(allNew).as("ALL_NEW of %s", update).isEqualTo(get("P")).isNotEqualTo(before);
        }
    }

    /** The values an expression names, null for none: DynamoDB refuses values a request does not use. */
    private static Map<String, AttributeValue> used(Map<String, AttributeValue> values, String expression) {
        Map<String, AttributeValue> out = new java.util.HashMap<>();
        values.forEach((name, value) -> {
            if (expression.contains(name)) {
                out.put(name, value);
            }
        });
        return out.isEmpty() ? null : out;
    }

    @Test
    void projectionReturnsOnlyTheNamedPaths() {
        newTable();
        c.putItem(b -> b.tableName(table)
                .item(Map.of(
                        "PK",
                        s("P"),
                        "SK",
                        s("A"),
                        "a",
                        s("1"),
                        "b",
                        s("2"),
                        "l",
                        AttributeValue.builder().l(s("x"), s("y"), s("z")).build())));
        var got = c.getItem(b -> b.tableName(table)
                        .key(key("P"))
                        .projectionExpression("a, #l[1]")
                        .expressionAttributeNames(Map.of("#l", "l")))
                .item();
        assertThat(got)
                .isEqualTo(Map.of(
                        "a", s("1"), "l", AttributeValue.builder().l(s("y")).build()));
    }

    @Test
    void invalidExpressionsGetDynamoDbsMessages() {
        newTable();
        assertValidation(
                () -> c.updateItem(b -> b.tableName(table)
                        .key(key("P"))
                        .updateExpression("SET PK = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                "One or more parameter values were invalid: Cannot update attribute PK. This attribute is part of the key");
        assertValidation(
                () -> c.putItem(b -> b.tableName(table)
                        .item(key("P"))
                        .conditionExpression("size = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))),
                "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: size");
        assertValidation(
                () -> c.putItem(b -> b.tableName(table)
                        .item(key("P"))
                        .conditionExpression("a = :v")
                        .expressionAttributeValues(Map.of(":v", n("1"), ":w", n("2")))),
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
        assertValidation(
                () -> c.putItem(b -> b.tableName(table).item(key("P")).conditionExpression("a = :nope")),
                "Invalid ConditionExpression: An expression attribute value used in expression is not defined; "
                        + "attribute value: :nope");
    }

    private static void assertValidation(Runnable call, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(DynamoDbException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
        });
    }

    @Test
    void conditionOnDeleteProtectsTheItem() {
        newTable();
        c.putItem(b -> b.tableName(table).item(Map.of("PK", s("P"), "SK", s("A"), "version", n("2"))));
        assertThatThrownBy(() -> c.deleteItem(b -> b.tableName(table)
                        .key(key("P"))
                        .conditionExpression("version = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        c.deleteItem(b -> b.tableName(table)
                .key(key("P"))
                .conditionExpression("version = :v")
                .expressionAttributeValues(Map.of(":v", n("2"))));
        assertThat(c.getItem(b -> b.tableName(table).key(key("P"))).hasItem()).isFalse();
        assertThat(List.of()).isEmpty();
    }
}
