package dev.kumiko.server.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.auth.AccessKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an invalid policy is told at startup. */
class PolicyParserTest {
    private static void rejects(String json, String message) {
        assertThatThrownBy(() -> PolicyEvaluatorTest.policy(json))
                .isInstanceOf(PolicyException.class)
                .hasMessage(message);
    }

    private static String statement(String body) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":[{" + body + "}]}";
    }

    @Test
    void readsTheSeedPolicy() {
        Policy p = PolicyEvaluatorTest.policy(PolicyEvaluatorTest.SEED_004);
        assertThat(p.variables()).isTrue();
        assertThat(p.statements()).hasSize(1);
        Policy.Statement s = p.statements().get(0);
        assertThat(s.sid()).isEqualTo("AllowAccessToOwnItems");
        assertThat(s.actions()).hasSize(5);
        assertThat(s.conditions()).singleElement().satisfies(c -> {
            assertThat(c.qualifier()).isEqualTo(ConditionClause.SetQualifier.FOR_ALL_VALUES);
            assertThat(c.operator()).isEqualTo(ConditionClause.Operator.STRING_EQUALS);
            assertThat(c.key()).isEqualTo("dynamodb:leadingkeys");
            assertThat(c.values()).containsExactly("USER#${aws:PrincipalTag/userId}");
        });
    }

    @Test
    void statementMayBeASingleObjectAndVersionMayBeAbsent() {
        Policy p = PolicyEvaluatorTest.policy(
                "{\"Statement\":{\"Effect\":\"Deny\",\"Action\":\"*\"," + "\"Resource\":\"*\"}}");
        assertThat(p.variables()).isFalse();
        assertThat(p.statements().get(0).effect()).isEqualTo(Policy.Effect.DENY);
        Policy nothing = PolicyEvaluatorTest.policy("{\"Version\":\"2012-10-17\",\"Statement\":[]}");
        assertThat(PolicyEvaluator.evaluate(
                        nothing, PolicyEvaluatorTest.ALICE, new AuthorizationCheck("ListTables", "*", Map.of())))
                .as("an empty policy allows nothing")
                .isEqualTo(PolicyEvaluator.Decision.IMPLICIT_DENY);
    }

    @Test
    void rejectsMalformedPolicies() {
        rejects(
                "{\"Version\":\"2012-10-18\",\"Statement\":[]}",
                "Version must be \"2012-10-17\" or \"2008-10-17\", not 2012-10-18");
        rejects(
                "{\"Version\":\"2012-10-17\",\"Statement\":\"Allow\"}",
                "Statement must be an object or a list of objects");
        rejects("{\"Version\":\"2012-10-17\"}", "Statement must be an object or a list of objects");
        rejects("{\"Version\":\"2012-10-17\",\"Statment\":[]}", "unknown policy element \"Statment\"");
        rejects(
                statement("\"Effect\":\"allow\",\"Action\":\"*\",\"Resource\":\"*\""),
                "Statement[0]: Effect must be \"Allow\" or \"Deny\"");
        rejects(
                statement("\"Effect\":\"Allow\",\"Resource\":\"*\""),
                "Statement[0]: exactly one of Action and NotAction is required");
        rejects(
                statement("\"Effect\":\"Allow\",\"Action\":\"*\",\"NotAction\":\"*\",\"Resource\":\"*\""),
                "Statement[0]: exactly one of Action and NotAction is required");
        rejects(
                statement("\"Effect\":\"Allow\",\"Action\":\"*\""),
                "Statement[0]: exactly one of Resource and NotResource is required");
        rejects(
                statement("\"Effect\":\"Allow\",\"Action\":\"GetItem\",\"Resource\":\"*\""),
                "Statement[0]: action \"GetItem\" must be \"*\" or \"service:action\"");
        rejects(
                statement("\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\""),
                "Statement[0]: element \"Principal\" is not allowed in an identity-based policy");
        rejects(
                statement("\"Effect\":\"Allow\",\"Action\":[],\"Resource\":\"*\""),
                "Statement[0].Action must be a string or a non-empty list of strings");
        rejects(
                statement("\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\",\"Condition\":{\"Null\":"
                        + "{\"dynamodb:Select\":\"yes\"}}"),
                "Statement[0]: Null condition values must be \"true\" or \"false\"");
    }

    @Test
    void rejectsOperatorsKumikoDoesNotEvaluate() {
        assertThatThrownBy(
                        () -> PolicyEvaluatorTest.policy(
                                statement(
                                        "\"Effect\":\"Allow\",\"Action\":\"*\","
                                                + "\"Resource\":\"*\",\"Condition\":{\"NumericLessThan\":{\"aws:MultiFactorAuthAge\":\"3600\"}}")))
                .isInstanceOf(PolicyException.class)
                .hasMessageStartingWith("Statement[0]: condition operator \"NumericLessThan\" is not supported");
    }

    @Test
    void startupCheckNamesTheKeyWithTheBadPolicy() {
        AccessKey good = AccessKey.admin("AKIAADMIN", "s");
        AccessKey bad = new AccessKey(
                "AKIABAD",
                "s",
                null,
                "123456789012",
                "arn:aws:iam::123456789012:user/b",
                Map.of(),
                Map.of(
                        "Version",
                        "2012-10-17",
                        "Statement",
                        Map.of("Effect", "Permit", "Action", "*", "Resource", "*")));
        PolicyAuthorizer.check(List.of(good));
        assertThatThrownBy(() -> PolicyAuthorizer.check(List.of(good, bad)))
                .isInstanceOf(PolicyException.class)
                .hasMessage("access key AKIABAD: invalid policy: Statement[0]: Effect must be \"Allow\" or \"Deny\"");
    }
}
