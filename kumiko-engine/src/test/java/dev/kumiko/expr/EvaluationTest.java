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

class EvaluationTest {
    private static final Map<String, AttributeValue> ITEM = map(
            "pk", s("p1"),
            "num", n("10"),
            "str", s("hello"),
            "emoji", s("\uD83D\uDE00"),
            "bin", AttributeValue.b(new byte[] {1, 2, (byte) 0xFF}),
            "ss", new AttributeValue.SS(List.of("a", "b")),
            "ns",
                    new AttributeValue.NS(List.of(
                            dev.kumiko.model.DynamoNumber.parse("1"), dev.kumiko.model.DynamoNumber.parse("2"))),
            "lst", AttributeValue.l(List.of(s("x"), n("2"), AttributeValue.m(map("k", s("v"))))),
            "mp", AttributeValue.m(map("inr", AttributeValue.m(map("deep", n("7"))), "flag", AttributeValue.TRUE)),
            "nul", AttributeValue.NULL);

    private static boolean test(String expr, Object... values) {
        Map<String, AttributeValue> v = values.length == 0 ? null : map(values);
        return RequestExpressions.builder()
                .conditionExpression(expr)
                .expressionAttributeValues(v)
                .build()
                .testCondition(ITEM);
    }

    @Test
    void comparisons() {
        assertThat(test("num = :v", ":v", n("10.0"))).isTrue();
        assertThat(test("num < :v", ":v", n("9"))).isFalse();
        assertThat(test("num > :v", ":v", n("9"))).isTrue();
        assertThat(test("num < :v", ":v", s("z")))
                .as("different types compare false")
                .isFalse();
        assertThat(test("absent < :v", ":v", n("1"))).isFalse();
        assertThat(test("absent = :v", ":v", n("1"))).isFalse();
        assertThat(test("absent <> :v", ":v", n("1"))).as("<> is NOT =").isTrue();
        assertThat(test("str <> :v", ":v", n("1"))).isTrue();
        assertThat(test("mp.inr.deep = :v", ":v", n("7"))).isTrue();
        assertThat(test("lst[2].k = :v", ":v", s("v"))).isTrue();
        assertThat(test("lst[9] = :v", ":v", s("v"))).isFalse();
        assertThat(test("ss = :v", ":v", new AttributeValue.SS(List.of("b", "a"))))
                .as("sets unordered")
                .isTrue();
        assertThat(test("emoji > :v", ":v", s("\uFFFF")))
                .as("UTF-8 byte order, not UTF-16")
                .isTrue();
        assertThat(test("bin > :v", ":v", AttributeValue.b(new byte[] {1, 2, 0x7F})))
                .as("unsigned bytes")
                .isTrue();
    }

    @Test
    void functions() {
        assertThat(test("attribute_exists(mp.flag)")).isTrue();
        assertThat(test("attribute_not_exists(mp.nope)")).isTrue();
        assertThat(test("attribute_type(nul, :t)", ":t", s("NULL"))).isTrue();
        assertThat(test("attribute_type(ns, :t)", ":t", s("SS"))).isFalse();
        assertThat(test("begins_with(str, :p)", ":p", s("hel"))).isTrue();
        assertThat(test("begins_with(bin, :p)", ":p", AttributeValue.b(new byte[] {1, 2})))
                .isTrue();
        assertThat(test("contains(str, :p)", ":p", s("ell"))).isTrue();
        assertThat(test("contains(ss, :p)", ":p", s("b"))).isTrue();
        assertThat(test("contains(ns, :p)", ":p", n("2.0"))).isTrue();
        assertThat(test("contains(lst, :p)", ":p", n("2"))).isTrue();
        assertThat(test("size(str) = :n", ":n", n("5"))).isTrue();
        assertThat(test("size(emoji) = :n", ":n", n("1")))
                .as("characters, not UTF-8 bytes")
                .isTrue();
        assertThat(test("size(lst) = :n AND size(mp) = :m", ":n", n("3"), ":m", n("2")))
                .isTrue();
        assertThat(test("size(num) >= :n", ":n", n("0")))
                .as("numbers have no size")
                .isFalse();
        assertThat(test("num BETWEEN :a AND :b", ":a", n("10"), ":b", n("11"))).isTrue();
        assertThat(test("num IN (:a, :b)", ":a", n("1"), ":b", n("10"))).isTrue();
    }

    @Test
    void precedenceNotOverAndOverOr() {
        // OR binds loosest: true OR (false AND false)
        assertThat(test("num = :t OR num = :f AND num = :f", ":t", n("10"), ":f", n("0")))
                .isTrue();
        // NOT binds tighter than AND: (NOT false) AND true
        assertThat(test("NOT num = :f AND num = :t", ":t", n("10"), ":f", n("0")))
                .isTrue();
        assertThat(test("NOT (num = :t OR num = :f)", ":t", n("10"), ":f", n("0")))
                .isFalse();
    }

    private static UpdateResult update(Map<String, AttributeValue> item, String expr, Object... values) {
        Map<String, AttributeValue> v = values.length == 0 ? null : map(values);
        return RequestExpressions.builder()
                .updateExpression(expr)
                .expressionAttributeValues(v)
                .build()
                .applyUpdate(item);
    }

    @Test
    void setArithmeticAndFunctions() {
        UpdateResult r = update(
                ITEM,
                "SET num = num + :one, str = if_not_exists(nope, :d), lst = list_append(:l, lst)",
                ":one",
                n("1"),
                ":d",
                s("dflt"),
                ":l",
                AttributeValue.l(List.of(s("first"))));
        assertThat(r.item().get("num")).isEqualTo(n("11"));
        assertThat(r.item().get("str")).isEqualTo(s("dflt"));
        assertThat(((AttributeValue.L) r.item().get("lst")).values())
                .hasSize(4)
                .first()
                .isEqualTo(s("first"));
        assertThat(ITEM.get("num")).as("input untouched").isEqualTo(n("10"));
        assertThat(r.updatedNew().keySet()).containsExactly("num", "str", "lst");
    }

    @Test
    void setUsesTheOriginalItemForEveryRightHandSide() {
        UpdateResult r = update(map("a", n("1"), "b", n("2")), "SET a = b, b = a");
        assertThat(r.item()).isEqualTo(map("a", n("2"), "b", n("1")));
    }

    @Test
    void nestedSetAppendAndRemoveShift() {
        UpdateResult r = update(ITEM, "SET mp.inr.extra = :v, lst[10] = :v REMOVE lst[0], lst[1]", ":v", s("new"));
        assertThat(((AttributeValue.M)
                                ((AttributeValue.M) r.item().get("mp")).values().get("inr"))
                        .values())
                .containsKey("extra");
        assertThat(((AttributeValue.L) r.item().get("lst")).values())
                .containsExactly(AttributeValue.m(map("k", s("v"))), s("new"));
        assertThat(r.updatedNew().get("mp"))
                .isEqualTo(AttributeValue.m(map("inr", AttributeValue.m(map("extra", s("new"))))));
    }

    @Test
    void updateRuntimeErrors() {
        assertThatThrownBy(() -> update(ITEM, "SET nope.x = :v", ":v", s("x")))
                .hasMessage("The document path provided in the update expression is invalid for update");
        assertThatThrownBy(() -> update(ITEM, "SET a = nope + :v", ":v", n("1")))
                .hasMessage(
                        "Invalid UpdateExpression: The provided expression refers to an attribute that does not exist in the item");
        assertThatThrownBy(() -> update(ITEM, "SET a = str + :v", ":v", n("1")))
                .hasMessage("Invalid UpdateExpression: An operand in the update expression has an incorrect data type");
        assertThatThrownBy(() -> update(
                        ITEM,
                        "ADD ss :v",
                        ":v",
                        new AttributeValue.NS(List.of(dev.kumiko.model.DynamoNumber.parse("1")))))
                .hasMessage("Invalid UpdateExpression: An operand in the update expression has an incorrect data type");
    }

    @Test
    void addAndDelete() {
        UpdateResult r = update(
                ITEM,
                "ADD num :n, newnum :n, ss :s, newset :s DELETE ns :ns",
                ":n",
                n("-0.5"),
                ":s",
                new AttributeValue.SS(List.of("b", "c")),
                ":ns",
                new AttributeValue.NS(
                        List.of(dev.kumiko.model.DynamoNumber.parse("1"), dev.kumiko.model.DynamoNumber.parse("2"))));
        assertThat(r.item().get("num")).isEqualTo(n("9.5"));
        assertThat(r.item().get("newnum")).isEqualTo(n("-0.5"));
        assertThat(r.item().get("ss")).isEqualTo(new AttributeValue.SS(List.of("a", "b", "c")));
        assertThat(r.item().get("newset")).isEqualTo(new AttributeValue.SS(List.of("b", "c")));
        assertThat(r.item()).doesNotContainKey("ns");
    }

    @Test
    void projection() {
        RequestExpressions e = RequestExpressions.builder()
                .projectionExpression("pk, mp.inr, lst[2].k, lst[0], #n")
                .expressionAttributeNames(map("#n", "nope"))
                .build();
        Map<String, AttributeValue> p = e.project(ITEM);
        assertThat(p.keySet()).containsExactly("pk", "mp", "lst");
        assertThat(p.get("lst")).isEqualTo(AttributeValue.l(List.of(s("x"), AttributeValue.m(map("k", s("v"))))));
        assertThatThrownBy(() -> RequestExpressions.builder()
                        .projectionExpression("a, a.b")
                        .build())
                .hasMessage(
                        "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]");
    }

    @Test
    void keyConditions() {
        RequestExpressions e = RequestExpressions.builder()
                .keyConditionExpression("#p = :p AND :lo <= sk")
                .expressionAttributeNames(map("#p", "pk"))
                .expressionAttributeValues(map(":p", s("a"), ":lo", s("m")))
                .build();
        KeyCondition kc = e.keyCondition(java.util.List.of("pk"), java.util.List.of("sk"));
        assertThat(kc.partitionKeyValue()).isEqualTo(s("a"));
        assertThat(kc.sortKey().operator()).isEqualTo(KeyCondition.SortKeyCondition.Operator.GE);
        assertThat(kc.sortKey().matches(s("n"))).isTrue();
        assertThatThrownBy(() -> keyCondition("pk = :p OR sk = :p"))
                .hasMessage("Invalid operator used in KeyConditionExpression: OR");
        assertThatThrownBy(() -> keyCondition("pk = :p AND sk = :p AND x = :p"))
                .hasMessage("Conditions can be of length 1 or 2 only");
        assertThatThrownBy(() -> keyCondition("pk = :p AND pk = :p"))
                .hasMessage("KeyConditionExpressions must only contain one condition per key");
        assertThatThrownBy(() -> keyCondition("sk = :p")).hasMessage("Query condition missed key schema element: pk");
        assertThatThrownBy(() -> keyCondition("pk = :p AND oth = :p"))
                .hasMessage("Query condition missed key schema element: sk");
        assertThatThrownBy(() -> keyCondition("pk < :p")).hasMessage("Query key condition not supported");
        assertThatThrownBy(() -> keyCondition("pk = sk"))
                .hasMessage(
                        "Invalid condition in KeyConditionExpression: multiple attribute names used in one condition");
    }

    private static KeyCondition keyCondition(String expr) {
        return RequestExpressions.builder()
                .keyConditionExpression(expr)
                .expressionAttributeValues(expr.contains(":p") ? map(":p", s("a")) : null)
                .build()
                .keyCondition(java.util.List.of("pk"), java.util.List.of("sk"));
    }
}
