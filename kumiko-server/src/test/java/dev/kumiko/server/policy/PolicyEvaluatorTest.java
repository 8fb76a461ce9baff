package dev.kumiko.server.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.policy.PolicyEvaluator.Decision;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** IAM evaluation as a pure function: matching, variables, set qualifiers, missing keys, deny wins. */
class PolicyEvaluatorTest {
    static final String TABLE = "arn:aws:dynamodb:ap-northeast-1:123456789012:table/MyApp";
    /** The seed-004 policy exactly as the seed writes it. */
    static final String SEED_004 = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"AllowAccessToOwnItems\","
            + "\"Effect\":\"Allow\",\"Action\":[\"dynamodb:GetItem\",\"dynamodb:PutItem\",\"dynamodb:UpdateItem\","
            + "\"dynamodb:DeleteItem\",\"dynamodb:Query\"],\"Resource\":\"arn:aws:dynamodb:ap-northeast-1:"
            + "123456789012:table/MyApp\",\"Condition\":{\"ForAllValues:StringEquals\":{\"dynamodb:LeadingKeys\":"
            + "[\"USER#${aws:PrincipalTag/userId}\"]}}}]}";

    static final Caller ALICE = new Caller(
            "arn:aws:iam::123456789012:user/alice", "123456789012", Map.of("userId", "alice"), "ap-northeast-1");

    static Policy policy(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return PolicyParser.parse(JsonTree.parseObject(b, 0, b.length));
    }

    static Decision decide(String json, Caller who, String action, String resource, Map<String, List<String>> keys) {
        return PolicyEvaluator.evaluate(policy(json), who, new AuthorizationCheck(action, resource, keys));
    }

    static Map<String, List<String>> leading(String... values) {
        return Map.of("dynamodb:LeadingKeys", List.of(values));
    }

    /** One Allow statement with a single condition clause, on every dynamodb action and resource. */
    static String allowWhen(String operator, String key, String valuesJson) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\","
                + "\"Resource\":\"*\",\"Condition\":{\"" + operator + "\":{\"" + key + "\":" + valuesJson + "}}}}";
    }

    @Test
    void seedPolicyAllowsOnlyTheCallersOwnPartition() {
        assertThat(decide(SEED_004, ALICE, "GetItem", TABLE, leading("USER#alice")))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(SEED_004, ALICE, "Query", TABLE, leading("USER#alice")))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(SEED_004, ALICE, "GetItem", TABLE, leading("USER#bob")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(SEED_004, ALICE, "GetItem", TABLE, leading("USER#alice", "USER#bob")))
                .as("ForAllValues: every value must match")
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(SEED_004, ALICE, "Scan", TABLE, Map.of()))
                .as("Scan is not listed")
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(SEED_004, ALICE, "GetItem", TABLE.replace("MyApp", "Other"), leading("USER#alice")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(
                        SEED_004,
                        ALICE,
                        "GetItem",
                        TABLE.replace("ap-northeast-1", "us-east-1"),
                        leading("USER#alice")))
                .as("another region")
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void forAllValuesHoldsForAnEmptyOrMissingSetAndForAnyValueDoesNot() {
        assertThat(decide(SEED_004, ALICE, "GetItem", TABLE, Map.of())).isEqualTo(Decision.ALLOW);
        assertThat(decide(SEED_004, ALICE, "GetItem", TABLE, leading())).isEqualTo(Decision.ALLOW);
        String any = allowWhen("ForAnyValue:StringEquals", "dynamodb:Attributes", "[\"a\",\"b\"]");
        assertThat(decide(any, ALICE, "GetItem", TABLE, Map.of())).isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(any, ALICE, "GetItem", TABLE, Map.of("dynamodb:Attributes", List.of("z", "b"))))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(any, ALICE, "GetItem", TABLE, Map.of("dynamodb:Attributes", List.of("z"))))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void aVariableWithoutAValueMatchesNothing() {
        Caller untagged = new Caller(ALICE.principalArn(), ALICE.accountId(), Map.of(), ALICE.region());
        assertThat(decide(SEED_004, untagged, "GetItem", TABLE, leading("USER#")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        String withDefault = allowWhen("StringEquals", "dynamodb:Select", "\"${aws:PrincipalTag/mode, 'COUNT'}\"");
        assertThat(decide(withDefault, untagged, "Query", TABLE, Map.of("dynamodb:Select", List.of("COUNT"))))
                .isEqualTo(Decision.ALLOW);
    }

    @Test
    void explicitDenyWinsOverAnyAllow() {
        String json = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\","
                + "\"Resource\":\"*\"},{\"Effect\":\"Deny\",\"Action\":\"dynamodb:Delete*\",\"Resource\":\""
                + TABLE + "\"}]}";
        assertThat(decide(json, ALICE, "DeleteItem", TABLE, Map.of())).isEqualTo(Decision.EXPLICIT_DENY);
        assertThat(decide(json, ALICE, "DeleteTable", TABLE, Map.of())).isEqualTo(Decision.EXPLICIT_DENY);
        assertThat(decide(json, ALICE, "PutItem", TABLE, Map.of())).isEqualTo(Decision.ALLOW);
        assertThat(decide(json, ALICE, "DeleteItem", TABLE + "2", Map.of())).isEqualTo(Decision.ALLOW);
    }

    @Test
    void actionsMatchIgnoringCaseResourcesDoNot() {
        String json = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":"
                + "\"DynamoDB:get?TEM\",\"Resource\":\"arn:aws:dynamodb:*:*:table/My*/index/*\"}}";
        assertThat(decide(json, ALICE, "GetItem", TABLE + "/index/GSI1", Map.of()))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(json, ALICE, "GetItem", TABLE, Map.of()))
                .as("table is not an index")
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(json, ALICE, "GetItem", TABLE.replace("MyApp", "myApp") + "/index/GSI1", Map.of()))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(json, ALICE, "GetItems", TABLE + "/index/GSI1", Map.of()))
                .as("? is one character")
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void notActionAndNotResourceMatchEverythingElse() {
        String json = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"NotAction\":"
                + "[\"dynamodb:Scan\"],\"NotResource\":\"" + TABLE + "\"}}";
        assertThat(decide(json, ALICE, "Query", TABLE + "2", Map.of())).isEqualTo(Decision.ALLOW);
        assertThat(decide(json, ALICE, "Scan", TABLE + "2", Map.of())).isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(json, ALICE, "Query", TABLE, Map.of())).isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void missingKeysFollowTheIamRules() {
        Map<String, List<String>> none = Map.of();
        Map<String, List<String>> all = Map.of("dynamodb:select", List.of("ALL_ATTRIBUTES"));
        assertThat(decide(allowWhen("StringEquals", "dynamodb:Select", "\"COUNT\""), ALICE, "Query", TABLE, none))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(allowWhen("StringNotEquals", "dynamodb:Select", "\"COUNT\""), ALICE, "Query", TABLE, none))
                .as("a negated operator holds for a missing key")
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(
                        allowWhen("StringNotEquals", "dynamodb:Select", "[\"COUNT\",\"ALL_ATTRIBUTES\"]"),
                        ALICE,
                        "Query",
                        TABLE,
                        all))
                .as("not equal to any listed value")
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(
                        allowWhen("StringEqualsIfExists", "dynamodb:Select", "\"COUNT\""), ALICE, "Query", TABLE, none))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(
                        allowWhen("StringEqualsIfExists", "dynamodb:Select", "\"COUNT\""), ALICE, "Query", TABLE, all))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(allowWhen("Null", "dynamodb:Select", "\"true\""), ALICE, "Query", TABLE, none))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(allowWhen("Null", "dynamodb:Select", "\"true\""), ALICE, "Query", TABLE, all))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void likeOperatorsUseWildcardsAndEscapes() {
        String like = allowWhen("ForAllValues:StringLike", "dynamodb:Attributes", "[\"pub_*\",\"a${*}\"]");
        assertThat(decide(like, ALICE, "GetItem", TABLE, Map.of("dynamodb:Attributes", List.of("pub_x", "a*"))))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(like, ALICE, "GetItem", TABLE, Map.of("dynamodb:Attributes", List.of("ab"))))
                .as("${*} is a literal star")
                .isEqualTo(Decision.IMPLICIT_DENY);
        String equals = allowWhen("StringEquals", "dynamodb:Select", "\"*\"");
        assertThat(decide(equals, ALICE, "Query", TABLE, Map.of("dynamodb:Select", List.of("COUNT"))))
                .as("StringEquals has no wildcards")
                .isEqualTo(Decision.IMPLICIT_DENY);
        String notLike = allowWhen("ForAllValues:StringNotLike", "dynamodb:Attributes", "[\"secret*\"]");
        assertThat(decide(notLike, ALICE, "GetItem", TABLE, Map.of("dynamodb:Attributes", List.of("a", "b"))))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(notLike, ALICE, "GetItem", TABLE, Map.of("dynamodb:Attributes", List.of("a", "secretX"))))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void globalKeysAndVariablesComeFromTheCaller() {
        String byUser = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\","
                + "\"Resource\":\"arn:aws:dynamodb:*:${aws:PrincipalAccount}:table/${aws:username}-*\"}}";
        assertThat(decide(byUser, ALICE, "GetItem", TABLE.replace("MyApp", "alice-data"), Map.of()))
                .isEqualTo(Decision.ALLOW);
        assertThat(decide(byUser, ALICE, "GetItem", TABLE.replace("MyApp", "bob-data"), Map.of()))
                .isEqualTo(Decision.IMPLICIT_DENY);
        String tagCondition = allowWhen("StringEqualsIgnoreCase", "aws:PrincipalTag/USERID", "\"ALICE\"");
        assertThat(decide(tagCondition, ALICE, "GetItem", TABLE, Map.of())).isEqualTo(Decision.ALLOW);
    }

    @Test
    void legacyVersionTakesVariablesLiterally() {
        String legacy = SEED_004.replace("2012-10-17", "2008-10-17");
        assertThat(decide(legacy, ALICE, "GetItem", TABLE, leading("USER#alice")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(legacy, ALICE, "GetItem", TABLE, leading("USER#${aws:PrincipalTag/userId}")))
                .isEqualTo(Decision.ALLOW);
    }

    @Test
    void conditionKeyNamesIgnoreCase() {
        String json = SEED_004.replace("dynamodb:LeadingKeys", "DynamoDB:leadingkeys");
        assertThat(decide(json, ALICE, "GetItem", TABLE, leading("USER#bob"))).isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(decide(json, ALICE, "GetItem", TABLE, leading("USER#alice"))).isEqualTo(Decision.ALLOW);
    }

    @Test
    void globMatchesRunsAndSingleCharacters() {
        assertThat(Glob.wildcards("a*b*c").matches("aXXbYYc", false)).isTrue();
        assertThat(Glob.wildcards("a*b*c").matches("aXXbYY", false)).isFalse();
        assertThat(Glob.wildcards("*").matches("", false)).isTrue();
        assertThat(Glob.wildcards("a?c").matches("abc", false)).isTrue();
        assertThat(Glob.wildcards("a?c").matches("ac", false)).isFalse();
        assertThat(Glob.literal("a*c").matches("abc", false)).isFalse();
        assertThat(Glob.literal("a*c").matches("a*c", false)).isTrue();
        assertThat(Glob.wildcards("*a*a*a*a*b").matches("a".repeat(200), false)).isFalse();
    }
}
