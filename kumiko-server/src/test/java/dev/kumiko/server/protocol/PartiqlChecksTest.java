package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.policy.AuthFacts;
import dev.kumiko.server.policy.AuthorizationCheck;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The IAM actions PartiQL statements need: one PartiQL action per statement, on its table or index. */
class PartiqlChecksTest {
    private static final String ARN = "arn:aws:dynamodb:ap-northeast-1:123456789012:";
    private static final AuthFacts FACTS = AuthFacts.of("ap-northeast-1", "123456789012", (table, index) -> "PK");

    private List<AuthorizationCheck> of(String operation, String json) {
        byte[] b = json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
        Operation<?, ?> op = OperationTable.standard().find(Operation.Api.DYNAMODB, operation);
        return checks(op, JsonTree.parseObject(b, 0, b.length));
    }

    private static <R> List<AuthorizationCheck> checks(Operation<R, ?> op, Map<String, Object> body) {
        return op.authorization().checks(op.decoder().decode(body), FACTS);
    }

    @Test
    void eachStatementKindNeedsItsAction() {
        assertThat(of("ExecuteStatement", "{'Statement':'SELECT * FROM MyApp WHERE PK = ?','Parameters':[{'S':'a'}]}"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.action()).isEqualTo("PartiQLSelect");
                    assertThat(c.resource()).isEqualTo(ARN + "table/MyApp");
                    assertThat(c.keys().get("dynamodb:fulltablescan")).containsExactly("false");
                });
        assertThat(of("ExecuteStatement", "{'Statement':'SELECT * FROM MyApp WHERE x = 1'}"))
                .singleElement()
                .satisfies(
                        c -> assertThat(c.keys().get("dynamodb:fulltablescan")).containsExactly("true"));
        assertThat(of(
                        "ExecuteStatement",
                        "{'Statement':'SELECT * FROM MyApp.GSI1 WHERE GSI1PK = ?'," + "'Parameters':[{'S':'a'}]}"))
                .singleElement()
                .satisfies(c -> assertThat(c.resource()).isEqualTo(ARN + "table/MyApp/index/GSI1"));
        List<AuthorizationCheck> batch = of(
                "BatchExecuteStatement",
                "{'Statements':["
                        + "{'Statement':'INSERT INTO MyApp VALUE ?','Parameters':[{'M':{'PK':{'S':'a'}}}]},"
                        + "{'Statement':'UPDATE Other SET x = ? WHERE PK = ?','Parameters':[{'N':'1'},{'S':'a'}]},"
                        + "{'Statement':'DELETE FROM MyApp WHERE PK = ?','Parameters':[{'S':'a'}]}]}");
        assertThat(batch)
                .extracting(AuthorizationCheck::action)
                .containsExactly("PartiQLInsert", "PartiQLUpdate", "PartiQLDelete");
        assertThat(batch.get(1).resource()).isEqualTo(ARN + "table/Other");
        assertThat(of(
                        "ExecuteTransaction",
                        "{'TransactStatements':[{'Statement':'DELETE FROM MyApp WHERE PK = ?',"
                                + "'Parameters':[{'S':'a'}]}]}"))
                .extracting(AuthorizationCheck::action)
                .containsExactly("PartiQLDelete");
    }

    @Test
    void aStatementThatDoesNotParseGetsNoCheckSoTheEngineAnswers() {
        assertThat(of("ExecuteStatement", "{'Statement':'SELEC * FROM MyApp'}")).isEmpty();
        assertThat(of("ExecuteStatement", "{'Statement':'SELECT * FROM MyApp WHERE PK = ?'}"))
                .isEmpty();
    }
}
