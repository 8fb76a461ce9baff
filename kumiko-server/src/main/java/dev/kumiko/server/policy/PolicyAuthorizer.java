package dev.kumiko.server.policy;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.auth.RequestAuthorizer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Authorizes a verified request against its access key's IAM policy: a key without a policy may do
 * everything; a key with one is evaluated the IAM way for every permission the request needs
 * ({@link RequestChecks}), and the first one not allowed refuses the whole request with DynamoDB's
 * AccessDeniedException, before anything is read or written.
 */
public final class PolicyAuthorizer implements RequestAuthorizer {
    private final KeySchemas schemas;
    private final Map<String, Policy> policies = new ConcurrentHashMap<>();

    /** Parses every key's policy now, so a bad one stops the server at startup ({@link #check}). */
    public PolicyAuthorizer(Engine engine, Collection<AccessKey> keys) {
        this.schemas = (table, index) -> partitionKey(engine, table, index);
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
    public void authorize(AccessKey key, String operation, boolean streams, Map<String, Object> body, String region) {
        if (key.policy() == null) {
            return;
        }
        Policy policy = policies.computeIfAbsent(key.accessKeyId(), id -> parse(key));
        Caller caller = new Caller(key.principalArn(), key.accountId(), key.principalTags(), region);
        List<AuthorizationCheck> checks = new RequestChecks(new ResourceArns(region, key.accountId()), schemas)
                .of(operation, streams, body);
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

    private static String partitionKey(Engine engine, String tableName, String indexName) {
        Table t = engine.catalog().get(tableName);
        if (t == null) {
            return null;
        }
        TableDescriptor d = t.descriptor();
        if (indexName == null) {
            return d.hashKeyName();
        }
        for (List<IndexDescriptor> indexes : List.of(d.localSecondaryIndexes(), d.globalSecondaryIndexes())) {
            for (IndexDescriptor x : indexes) {
                if (x.indexName().equals(indexName)) {
                    return x.hashKeyName();
                }
            }
        }
        return null;
    }
}
