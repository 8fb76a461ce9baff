package dev.kumiko.server.policy;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A parsed IAM identity-based policy. Parsed once when the credentials file is loaded; evaluation
 * ({@link PolicyEvaluator}) only reads it, so one instance serves every request concurrently.
 *
 * @param variables whether ${...} policy variables are substituted (Version 2012-10-17 only)
 */
record Policy(boolean variables, List<Statement> statements) {
    static final String VERSION_CURRENT = "2012-10-17";
    static final String VERSION_LEGACY = "2008-10-17";

    Policy {
        statements = List.copyOf(statements);
    }

    /**
     * A resource-based policy statement's Principal: everyone ("*"), whole accounts (an account id
     * or {@code arn:aws:iam::ACCOUNT:root}: any principal of that account), or principal ARNs, matched
     * exactly. Null on an identity-based policy's statements, whose principal is the key itself.
     */
    record Principals(boolean anyone, java.util.Set<String> accounts, java.util.Set<String> arns) {
        Principals {
            accounts = java.util.Set.copyOf(accounts);
            arns = java.util.Set.copyOf(arns);
        }

        boolean matches(Caller caller) {
            return anyone || accounts.contains(caller.accountId()) || arns.contains(caller.principalArn());
        }
    }

    enum Effect {
        ALLOW,
        DENY
    }

    /**
     * One statement. Action patterns are compiled at parse time (no variables there); Resource
     * strings may hold variables and are compiled per request.
     */
    record Statement(
            @Nullable String sid,
            Effect effect,
            boolean notAction,
            List<Glob> actions,
            boolean notResource,
            List<String> resources,
            List<ConditionClause> conditions,
            @Nullable Principals principals) {
        Statement {
            actions = List.copyOf(actions);
            resources = List.copyOf(resources);
            conditions = List.copyOf(conditions);
            assert !actions.isEmpty() && !resources.isEmpty();
        }
    }
}
