package dev.kumiko.server.policy;

/**
 * IAM's evaluation for one identity-based policy: an explicit Deny in any matching statement
 * wins; otherwise a matching Allow allows; otherwise the request is implicitly denied. A statement
 * matches when its action, its resource and every one of its condition clauses match.
 */
final class PolicyEvaluator {
    private PolicyEvaluator() {}

    enum Decision {
        ALLOW,
        IMPLICIT_DENY,
        EXPLICIT_DENY
    }

    static Decision evaluate(Policy policy, Caller caller, AuthorizationCheck check) {
        boolean allowed = false;
        for (Policy.Statement s : policy.statements()) {
            if (!applies(s, policy.variables(), caller, check)) {
                continue;
            }
            if (s.effect() == Policy.Effect.DENY) {
                return Decision.EXPLICIT_DENY;
            }
            allowed = true;
        }
        return allowed ? Decision.ALLOW : Decision.IMPLICIT_DENY;
    }

    static boolean applies(Policy.Statement s, boolean variables, Caller caller, AuthorizationCheck check) {
        return (s.principals() == null || s.principals().matches(caller))
                && actionMatches(s, check.qualifiedAction())
                && resourceMatches(s, variables, caller, check.resource())
                && ConditionEvaluator.allHold(s.conditions(), variables, caller, check);
    }

    /** Action names ignore case in IAM ("dynamodb:getitem" grants GetItem). */
    private static boolean actionMatches(Policy.Statement s, String action) {
        boolean any = false;
        for (Glob g : s.actions()) {
            if (g.matches(action, true)) {
                any = true;
                break;
            }
        }
        return any != s.notAction();
    }

    /** ARNs are case-sensitive; a Resource whose variable has no value matches nothing. */
    private static boolean resourceMatches(Policy.Statement s, boolean variables, Caller caller, String resource) {
        boolean any = false;
        for (String text : s.resources()) {
            Glob g = PolicyVariables.compile(text, true, variables ? caller::value : null);
            if (g != null && g.matches(resource, false)) {
                any = true;
                break;
            }
        }
        return any != s.notResource();
    }
}
