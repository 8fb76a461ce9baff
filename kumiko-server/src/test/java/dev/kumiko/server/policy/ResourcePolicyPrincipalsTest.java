package dev.kumiko.server.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.error.DynamoException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which callers a resource-based policy's Principal names, and what it refuses to parse. */
class ResourcePolicyPrincipalsTest {
    private static final Caller BOB = new Caller("arn:aws:iam::123456789012:user/bob", "123456789012", Map.of(), "r");
    private static final Caller EVE = new Caller("arn:aws:iam::210987654321:user/eve", "210987654321", Map.of(), "r");
    private static final AuthorizationCheck GET = new AuthorizationCheck("GetItem", "arn:t", Map.of());

    private static PolicyEvaluator.Decision decide(String principal, Caller caller) {
        String doc = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Principal\":" + principal
                + ",\"Action\":\"dynamodb:GetItem\",\"Resource\":\"*\"}}";
        ResourcePolicyDocuments.check(doc, false);
        return PolicyEvaluator.evaluate(ResourcePolicyDocuments.parsed(doc), caller, GET);
    }

    @Test
    void principalsNameAnyoneAnAccountOrAnArn() {
        assertThat(decide("\"*\"", EVE)).isEqualTo(PolicyEvaluator.Decision.ALLOW);
        assertThat(decide("{\"AWS\":\"*\"}", EVE)).isEqualTo(PolicyEvaluator.Decision.ALLOW);
        assertThat(decide("{\"AWS\":\"123456789012\"}", BOB)).isEqualTo(PolicyEvaluator.Decision.ALLOW);
        assertThat(decide("{\"AWS\":\"123456789012\"}", EVE)).isEqualTo(PolicyEvaluator.Decision.IMPLICIT_DENY);
        assertThat(decide("{\"AWS\":\"arn:aws:iam::123456789012:root\"}", BOB))
                .isEqualTo(PolicyEvaluator.Decision.ALLOW);
        assertThat(decide(
                        "{\"AWS\":[\"arn:aws:iam::210987654321:user/eve\",\"arn:aws:iam::123456789012:user/bob\"]}",
                        BOB))
                .isEqualTo(PolicyEvaluator.Decision.ALLOW);
        assertThat(decide("{\"AWS\":\"arn:aws:iam::123456789012:user/bobby\"}", BOB))
                .isEqualTo(PolicyEvaluator.Decision.IMPLICIT_DENY);
    }

    @Test
    void whatCannotBeHonouredIsRefused() {
        String prefix = "One or more parameter values were invalid: Invalid policy document: ";
        assertThatThrownBy(() -> decide("{\"Service\":\"lambda.amazonaws.com\"}", BOB))
                .isInstanceOf(DynamoException.class)
                .hasMessage(prefix + "Statement[0]: Policy contains invalid principal type \"Service\" "
                        + "(Kumiko evaluates AWS principals only)");
        assertThatThrownBy(() -> decide("{\"AWS\":\"arn:aws:iam::123456789012:user/*\"}", BOB))
                .hasMessage(prefix + "Statement[0]: Policy contains an invalid principal: "
                        + "arn:aws:iam::123456789012:user/*");
        assertThatThrownBy(() -> ResourcePolicyDocuments.check(
                        "{\"Statement\":{\"Effect\":\"Allow\",\"NotPrincipal\":{\"AWS\":\"*\"},"
                                + "\"Action\":\"dynamodb:GetItem\",\"Resource\":\"*\"}}",
                        false))
                .hasMessage(
                        prefix + "Statement[0]: element \"NotPrincipal\" is not allowed in a resource-based policy");
        assertThatThrownBy(() -> ResourcePolicyDocuments.check(
                        "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\","
                                + "\"Action\":[\"s3:GetObject\",\"dynamodb:Nope\",\"dynamodb:Get*\"],\"Resource\":\"*\"}}",
                        false))
                .hasMessage(prefix + "The following action names are invalid: \"s3:GetObject\", \"dynamodb:Nope\"");
    }

    @Test
    void anIdentityPolicyStillRefusesAPrincipal() {
        assertThatThrownBy(() -> PolicyEvaluatorTest.policy("{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\","
                        + "\"Action\":\"dynamodb:GetItem\",\"Resource\":\"*\"}}"))
                .isInstanceOf(PolicyException.class)
                .hasMessage("Statement[0]: element \"Principal\" is not allowed in an identity-based policy");
    }
}
