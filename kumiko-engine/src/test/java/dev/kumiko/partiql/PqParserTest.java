package dev.kumiko.partiql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.ReturnValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parser and the expression text it plans into, without a store. */
class PqParserTest {

    static PqStatement parse(String statement, AttributeValue... parameters) {
        return PqParser.parse(statement, parameters.length == 0 ? null : List.of(parameters));
    }

    static void refused(String statement, String message) {
        assertThatThrownBy(() -> parse(statement))
                .isInstanceOf(DynamoException.class)
                .hasMessage(message);
    }

    @Test
    void selectReadsProjectionTargetWhereAndOrder() {
        PqStatement.Select s = (PqStatement.Select) parse(
                "select a, \"b c\".d[2] from \"T\".\"I\" where x = ? and y between 1 and 2 order by y desc",
                new AttributeValue.S("v"));
        assertThat(s.tableName()).isEqualTo("T");
        assertThat(s.indexName()).isEqualTo("I");
        assertThat(s.projection()).hasSize(2);
        assertThat(s.orderBy())
                .singleElement()
                .satisfies(o -> assertThat(o.descending()).isTrue());
        PqExpressionText text = new PqExpressionText();
        assertThat(text.condition(s.where())).isEqualTo("(#n0 = :v0) AND (#n1 BETWEEN :v1 AND :v2)");
        assertThat(text.projection(s.projection())).isEqualTo("#n2, #n3.#n4[2]");
        assertThat(text.names()).containsEntry("#n3", "b c");
        assertThat(text.values()).containsEntry(":v0", new AttributeValue.S("v"));
    }

    @Test
    void updateBecomesOneUpdateExpression() {
        PqStatement.Update u = (PqStatement.Update)
                parse(
                        "UPDATE t SET a = a + 1, l = list_append(l, [1]) "
                                + "SET s = set_add(s, <<'x'>>) REMOVE r SET z = set_delete(z, <<2>>) WHERE k = 1 RETURNING MODIFIED NEW *");
        assertThat(u.returnValues()).isEqualTo(ReturnValue.UPDATED_NEW);
        assertThat(u.actions())
                .extracting(a -> a.getClass().getSimpleName())
                .containsExactly("Set", "Set", "Add", "Remove", "Delete");
        assertThat(new PqExpressionText().update(u.actions()))
                .isEqualTo("SET #n0 = #n0 + :v0, #n1 = list_append(#n1, :v1) ADD #n2 :v2 REMOVE #n3 DELETE #n4 :v3");
    }

    @Test
    void literalsInDynamoDbSyntax() {
        PqStatement.Insert i = (PqStatement.Insert) parse(
                "INSERT INTO t VALUE {'s': 'it''s', 'n': -.5e1, 'b': true, "
                        + "'z': null, 'l': [1, [2]], 'm': {'k': 'v'}, 'ss': <<'a', 'b'>>, 'ns': <<1, 2>>, 'p': ?}",
                new AttributeValue.Bool(false));
        Map<String, AttributeValue> item = i.item();
        assertThat(item.get("s")).isEqualTo(new AttributeValue.S("it's"));
        assertThat(item.get("n")).isEqualTo(new AttributeValue.N(DynamoNumber.parse("-5")));
        assertThat(item.get("b")).isEqualTo(new AttributeValue.Bool(true));
        assertThat(item.get("z")).isEqualTo(new AttributeValue.Null());
        assertThat(item.get("ss")).isEqualTo(new AttributeValue.SS(List.of("a", "b")));
        assertThat(item.get("p")).isEqualTo(new AttributeValue.Bool(false));
        assertThat(item.get("m")).isEqualTo(new AttributeValue.M(Map.of("k", new AttributeValue.S("v"))));
    }

    @Test
    void commentsAndSemicolon() {
        assertThat(parse("-- x\nDELETE /* y */ FROM t WHERE k = 1;")).isInstanceOf(PqStatement.Delete.class);
    }

    @Test
    void existsWrapsASelect() {
        PqStatement s = parse("EXISTS(SELECT * FROM t WHERE k = 1 AND a IS NOT MISSING)");
        assertThat(s).isInstanceOf(PqStatement.Exists.class);
        assertThat(s.action()).isEqualTo("PartiQLSelect");
    }

    @Test
    void refusals() {
        refused(
                "SELECT * FROM t WHERE k = 1 foo",
                "Statement wasn't well formed, can't be processed: " + "Unexpected token after expression");
        refused("SELECT * FROM t AS x", "Aliasing is not supported");
        refused("SELECT * FROM t WHERE k = ?", "Number of parameters in request and statement don't match.");
        refused("UPDATE t SET s = set_add(s) WHERE k = 1", "SET_ADD must have exactly two arguments at 1:18:7");
        refused(
                "UPDATE t SET s = set_add(s, 'x') WHERE k = 1",
                "The second argument to SET_ADD must be a value with type SET at 1:26:1");
        refused(
                "INSERT INTO t VALUE {'s': <<1, 'a'>>}",
                "Unsupported data type in a set: sets hold only strings, numbers or binary values");
        refused(
                "DELETE FROM t WHERE k = 1 RETURNING ALL NEW *",
                "Unsupported RETURNING clause for DELETE statement: only ALL OLD * is supported");
        refused(
                "SELECT * FROM t WHERE attribute_exists()",
                "Incorrect number of operands for operator or function; "
                        + "operator or function: attribute_exists, number of operands: 0");
        refused("SELECT * FROM t WHERE k = 1 AND\n  foo(a)", "Unrecognized function: foo at 2:3:3");
    }

    @Test
    void fullKeySplitsKeyEqualitiesFromTheRest() {
        PqStatement.Delete d = (PqStatement.Delete) parse("DELETE FROM t WHERE 'x' = pk AND sk = 2 AND a > 1");
        List<dev.kumiko.expr.Condition> rest = new java.util.ArrayList<>();
        Map<String, AttributeValue> key = PqKeys.fullKey(d.where(), List.of("pk", "sk"), rest);
        assertThat(key).containsOnlyKeys("pk", "sk");
        assertThat(rest).hasSize(1);
        assertThatThrownBy(() -> PqKeys.fullKey(d.where(), List.of("pk", "other"), new java.util.ArrayList<>()))
                .hasMessage("Where clause does not contain a mandatory equality on all key attributes");
    }
}
