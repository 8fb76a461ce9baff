package dev.kumiko.expr;

import static dev.kumiko.expr.Fixtures.map;
import static dev.kumiko.expr.Fixtures.n;
import static dev.kumiko.expr.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LegacyExpressionsTest {
    private static final Map<String, AttributeValue> ITEM = map("a", n("5"), "s", s("hello"));

    @Test
    void expectedShorthandAndOperators() {
        assertThat(LegacyExpressions.test(
                        LegacyExpressions.expected(map("a", new LegacyCondition(n("5"), null, null, null)), null),
                        ITEM))
                .isTrue();
        assertThat(LegacyExpressions.test(
                        LegacyExpressions.expected(map("x", new LegacyCondition(null, false, null, null)), null), ITEM))
                .isTrue();
        assertThat(LegacyExpressions.test(
                        LegacyExpressions.expected(
                                map(
                                        "a", LegacyCondition.of("BETWEEN", n("1"), n("9")),
                                        "s", LegacyCondition.of("BEGINS_WITH", s("z"))),
                                "OR"),
                        ITEM))
                .isTrue();
        assertThat(LegacyExpressions.test(
                        LegacyExpressions.filter(
                                map(
                                        "a", LegacyCondition.of("IN", n("1"), n("9")),
                                        "s", LegacyCondition.of("NOT_NULL")),
                                "AND"),
                        ITEM))
                .isFalse();
    }

    @Test
    void argumentCountErrors() {
        assertThatThrownBy(() -> LegacyExpressions.filter(map("a", LegacyCondition.of("EQ")), null))
                .hasMessage(
                        "One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator");
        assertThatThrownBy(() -> LegacyExpressions.filter(map("a", LegacyCondition.of("NULL", n("1"))), null))
                .hasMessage(
                        "One or more parameter values were invalid: Invalid number of argument(s) for the NULL ComparisonOperator");
        assertThatThrownBy(() -> LegacyExpressions.filter(map("a", LegacyCondition.of("BETWEEN", n("1"))), null))
                .hasMessage(
                        "One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator");
    }

    @Test
    void mixingIsRejected() {
        assertThatThrownBy(() -> LegacyExpressions.checkNotMixed(List.of("Expected"), List.of("ConditionExpression")))
                .hasMessage("Can not use both expression and non-expression parameters in the same request:"
                        + " Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}");
    }

    @Test
    void attributeUpdates() {
        UpdateExpression u = LegacyExpressions.attributeUpdates(
                map(
                        "a", new LegacyUpdate("ADD", n("2")),
                        "s", new LegacyUpdate("DELETE", null),
                        "l", new LegacyUpdate("ADD", AttributeValue.l(List.of(s("x")))),
                        "p", new LegacyUpdate(null, s("put"))),
                List.of("pk"));
        UpdateResult r = LegacyExpressions.apply(u, ITEM);
        assertThat(r.item()).isEqualTo(map("a", n("7"), "l", AttributeValue.l(List.of(s("x"))), "p", s("put")));
        assertThatThrownBy(() ->
                        LegacyExpressions.attributeUpdates(map("pk", new LegacyUpdate("PUT", s("x"))), List.of("pk")))
                .hasMessage(
                        "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key");
    }

    @Test
    void keyConditions() {
        KeyCondition kc = LegacyExpressions.keyConditions(
                map("pk", LegacyCondition.of("EQ", s("p")), "sk", LegacyCondition.of("BEGINS_WITH", s("x"))),
                java.util.List.of("pk"),
                java.util.List.of("sk"));
        assertThat(kc.sortKey().matches(s("xyz"))).isTrue();
        assertThatThrownBy(() -> LegacyExpressions.keyConditions(
                        map("pk", LegacyCondition.of("NE", s("p"))), java.util.List.of("pk"), java.util.List.of()))
                .hasMessage(
                        "One or more parameter values were invalid: Attempted conditional constraint is not an indexable operation");
    }
}
