package dev.kumiko.expr;

import static dev.kumiko.expr.Fixtures.map;
import static dev.kumiko.expr.Fixtures.n;
import static dev.kumiko.expr.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParseErrorTest {
    private static final Map<String, AttributeValue> VALUES = map(
            ":v",
            s("x"),
            ":n",
            n("1"),
            ":m",
            n("5"),
            ":l",
            AttributeValue.l(List.of(s("a"))),
            ":b",
            AttributeValue.TRUE,
            ":ss",
            new AttributeValue.SS(List.of("a")));

    private static void assertCondition(String expr, String message) {
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .conditionExpression(expr)
                        .expressionAttributeValues(usedValues(expr))
                        .build())
                .isInstanceOfSatisfying(DynamoException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION);
                    org.assertj.core.api.Assertions.assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    /** Only the values the text mentions, so the unused-values check stays quiet. */
    private static Map<String, AttributeValue> usedValues(String expr) {
        Map<String, AttributeValue> m = new java.util.LinkedHashMap<>();
        VALUES.forEach((k, v) -> {
            if (expr.matches(".*" + k + "\\b.*")) {
                m.put(k, v);
            }
        });
        return m.isEmpty() ? null : m;
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "a =|Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"",
                "NOT a|Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"a\"",
                "user-id = :v|Invalid ConditionExpression: Syntax error; token: \"-\", near: \"user-id\"",
                "begins_with(a, G_M#)|Invalid ConditionExpression: Syntax error; token: \"#\", near: \"G_M#)\"",
                "a = :v AND|Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\"",
                "a = = :v|Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = :v\"",
                "(a = :v|Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \":v\"",
                "a[x] = :v|Invalid ConditionExpression: Syntax error; token: \"x\", near: \"[x]\"",
                "name = :v|Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: name",
                "a.Status = :v|Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Status",
                "#x = :v|Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #x",
                "a = :zz|Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :zz",
                "foo(a)|Invalid ConditionExpression: Invalid function name; function: foo",
                "attribute_exists(a, b)|Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2",
                "attribute_exists(:v)|Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists",
                "size(a)|Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size",
                "attribute_exists(a) = :v|Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: attribute_exists",
                "list_append(a, :l) = :l|Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: list_append",
                "size(:n) > :n|Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N",
                "begins_with(a, :n)|Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N",
                "a < :b|Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: BOOL",
                "a BETWEEN :m AND :n|Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower operand: AttributeValue: {N:5}, upper operand: AttributeValue: {N:1}",
                "((a = :v))|Invalid ConditionExpression: The expression has redundant parentheses;",
                "   |Invalid ConditionExpression: The expression can not be empty;",
            })
    void conditionErrors(String expr, String message) {
        assertCondition(expr == null ? " " : expr, message);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "a = :v|",
                "NOT a = :v AND b = :v OR c = :v|",
                "(a = :v) AND ((b = :v) OR c = :v)|",
                "#a.b[1].c <> :v|",
                "a IN (:v, :n)|",
                "size(a) BETWEEN :n AND :m|",
                "attribute_type(a, :v) OR contains(a, :v)|",
                "a.ADDx = :v|",
            })
    void validConditions(String expr, String ignored) {
        Map<String, String> names = expr.contains("#a") ? map("#a", "A") : null;
        Map<String, AttributeValue> values = usedValues(expr);
        if (expr.contains("attribute_type")) {
            values = map(":v", s("S"));
        }
        Map<String, AttributeValue> v = values;
        assertThatCode(() -> RequestExpressions.builder()
                        .conditionExpression(expr)
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(v)
                        .build())
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SET a = :v SET b = :v|Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;",
                "REMOVE a, b remove c|Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update expression;",
                "SET a = :v, a.b = :v|Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]",
                "SET a[0] = :v REMOVE a.b|Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]",
                "ADD a :v|Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING",
                "DELETE a :n|Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER",
                "SET a = attribute_exists(b)|Invalid UpdateExpression: The function is not allowed to be used this way in an expression; function: attribute_exists",
                "SET a = list_append(:l)|Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1",
                "SET a = if_not_exists(:v, :v)|Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists",
                "SET a = :n + :n + :n|Invalid UpdateExpression: Syntax error; token: \"+\", near: \":n + :n\"",
                "SET PK = :v|One or more parameter values were invalid: Cannot update attribute PK. This attribute is part of the key",
                "SET a = :v FOO b|Invalid UpdateExpression: Syntax error; token: \"FOO\", near: \":v FOO b\"",
            })
    void updateErrors(String expr, String message) {
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .updateExpression(expr)
                        .expressionAttributeValues(usedValues(expr))
                        .keyAttributeNames(List.of("PK"))
                        .build())
                .hasMessage(message);
    }

    @Test
    void requestLevelErrors() {
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .conditionExpression("a = :v")
                        .expressionAttributeNames(Map.of())
                        .build())
                .hasMessage("ExpressionAttributeNames must not be empty");
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .conditionExpression("a = :v")
                        .expressionAttributeValues(Map.of())
                        .build())
                .hasMessage("ExpressionAttributeValues must not be empty");
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .conditionExpression("a = :v")
                        .expressionAttributeNames(map("#a", "x", "#b", "y"))
                        .expressionAttributeValues(map(":v", s("x")))
                        .build())
                .hasMessage("Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}");
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .conditionExpression("a = :v")
                        .expressionAttributeValues(map(":v", s("x"), ":w", s("y")))
                        .build())
                .hasMessage("Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
        assertThatCode(() -> RequestExpressions.builder()
                        .conditionExpression("a = :v")
                        .updateExpression("SET #a = :w")
                        .expressionAttributeNames(map("#a", "x"))
                        .expressionAttributeValues(map(":v", s("x"), ":w", s("y")))
                        .build())
                .doesNotThrowAnyException();
    }

    @Test
    void sizeLimitCountsRawBytes() {
        String ok = "a = :v OR " + "b".repeat(4096 - "a = :v OR ".length() - " = :v".length()) + " = :v";
        assertThatCode(() -> ExpressionParser.parseUncached(ExpressionKind.FILTER, ok))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ExpressionParser.parseUncached(ExpressionKind.FILTER, ok + " "))
                .hasMessage(
                        "Invalid FilterExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
    }

    @Test
    void inAllowsAtMostOneHundredOperands() {
        String hundred = "a IN (" + String.join(",", java.util.Collections.nCopies(100, ":v")) + ")";
        assertThatCode(() -> ExpressionParser.parseUncached(ExpressionKind.CONDITION, hundred))
                .doesNotThrowAnyException();
        String more = "a IN (" + String.join(",", java.util.Collections.nCopies(101, ":v")) + ")";
        assertThatThrownBy(() -> ExpressionParser.parseUncached(ExpressionKind.CONDITION, more))
                .hasMessageStartingWith(
                        "Invalid ConditionExpression: The IN operator is provided with too many operands");
    }

    @Test
    void reservedWordListIsComplete() {
        org.assertj.core.api.Assertions.assertThat(ReservedWords.count()).isEqualTo(573);
        org.assertj.core.api.Assertions.assertThat(ReservedWords.isReserved("zone"))
                .isTrue();
        org.assertj.core.api.Assertions.assertThat(ReservedWords.isReserved("abort"))
                .isTrue();
        org.assertj.core.api.Assertions.assertThat(ReservedWords.isReserved("pk"))
                .isFalse();
    }
}
