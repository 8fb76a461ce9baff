package dev.kumiko.server.policy;

import dev.kumiko.engine.Engine;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.server.auth.AccessKey;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Authorizes a verified request against its access key's IAM policy: a key without a policy may do
 * everything; a key with one is evaluated the IAM way for every permission the request needs
 * (the operation's {@link AuthRule}), and the first one not allowed refuses the whole request with DynamoDB's
 * AccessDeniedException, before anything is read or written.
 */
public final class PolicyAuthorizer implements RequestAuthorizer {
    private final KeySchemas schemas;
    private final Map<String, Policy> policies = new ConcurrentHashMap<>();

    /** Parses every key's policy now, so a bad one stops the server at startup ({@link #check}). */
    public PolicyAuthorizer(Engine engine, Collection<AccessKey> keys) {
        this.schemas = engine.control()::partitionKeyName;
        for (AccessKey k : keys) {
            if (k.policy() != null) {
                policies.put(k.accessKeyId(), parse(k));
            }
        }
    }

    /** Throws a {@link PolicyException} naming the first key whose policy is invalid. */
    public static void check(Collection<AccessKey> keys) {
        for (AccessKey k : keys) {
            if (k.policy() != null) {
                parse(k);
            }
        }
    }

    private static Policy parse(AccessKey k) {
        try {
            return PolicyParser.parse(k.policy());
        } catch (PolicyException e) {
            throw new PolicyException("access key " + k.accessKeyId() + ": invalid policy: " + e.getMessage());
        }
    }

    @Override
    public <R> void authorize(AccessKey key, String region, AuthRule<R> rule, R request) {
        if (key.policy() == null) {
            return;
        }
        Policy policy = policies.computeIfAbsent(key.accessKeyId(), id -> parse(key));
        Caller caller = new Caller(key.principalArn(), key.accountId(), key.principalTags(), region);
        List<AuthorizationCheck> checks =
                rule.checks(request, new AuthFacts(new ResourceArns(region, key.accountId()), schemas));
        for (AuthorizationCheck c : checks) {
            PolicyEvaluator.Decision d = PolicyEvaluator.evaluate(policy, caller, c);
            if (d != PolicyEvaluator.Decision.ALLOW) {
                throw new DynamoException(ErrorCode.ACCESS_DENIED, message(key.principalArn(), c, d));
            }
        }
    }

    /**
     * IAM's AccessDenied text as DynamoDB returns it. The implicit-deny form is captured from AWS
     * (aws-sdk-java users' reports, docs/notes/error-messages.md); the explicit-deny form follows IAM's
     * documented pattern and is UNVERIFIED against a captured DynamoDB response.
     */
    static String message(String principalArn, AuthorizationCheck c, PolicyEvaluator.Decision d) {
        assert d != PolicyEvaluator.Decision.ALLOW;
        String head = "User: " + principalArn + " is not authorized to perform: " + c.qualifiedAction()
                + " on resource: " + c.resource();
        if (d == PolicyEvaluator.Decision.EXPLICIT_DENY) {
            return head + " with an explicit deny in an identity-based policy";
        }
        return head + " because no identity-based policy allows the " + c.qualifiedAction() + " action";
    }
}
