package dev.kumiko.server.policy;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.control.ResourcePolicies;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.server.auth.AccessKey;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Authorizes a verified request against its access key's IAM policy and the resource-based policy
 * of the table or stream it touches, as IAM evaluates the two within one account: an explicit Deny
 * in either refuses; otherwise an Allow in either grants; otherwise the request is implicitly
 * denied. A key without a policy has an identity policy that allows everything (an admin key), so
 * only a resource policy's Deny can refuse it. Every permission the request needs (the operation's
 * {@link AuthRule}) is checked, and the first one not allowed refuses the whole request with
 * DynamoDB's AccessDeniedException, before anything is read or written.
 */
public final class PolicyAuthorizer implements RequestAuthorizer {
    private static final String TABLE_MARKER = ":table/";
    private static final String STREAM_MARKER = "/stream/";
    private static final String INDEX_MARKER = "/index/";

    private final KeySchemas schemas;
    private final ResourcePolicies resourcePolicies;
    private final Map<String, Policy> policies = new ConcurrentHashMap<>();

    /** Parses every key's policy now, so a bad one stops the server at startup ({@link #check}). */
    public PolicyAuthorizer(Engine engine, Collection<AccessKey> keys) {
        this.schemas = engine.control()::partitionKeyName;
        this.resourcePolicies = engine.resourcePolicies();
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
        Policy identity = key.policy() == null ? null : policies.computeIfAbsent(key.accessKeyId(), id -> parse(key));
        Caller caller = new Caller(key.principalArn(), key.accountId(), key.principalTags(), region);
        List<AuthorizationCheck> checks =
                rule.checks(request, new AuthFacts(new ResourceArns(region, key.accountId()), schemas));
        // A batch or transaction checks one table many times: its policy is read once per request.
        Map<String, Optional<ResourcePolicies.Attached>> read = new HashMap<>(4);
        for (AuthorizationCheck c : checks) {
            PolicyEvaluator.Decision byIdentity =
                    identity == null ? PolicyEvaluator.Decision.ALLOW : PolicyEvaluator.evaluate(identity, caller, c);
            if (byIdentity == PolicyEvaluator.Decision.EXPLICIT_DENY) {
                throw new DynamoException(ErrorCode.ACCESS_DENIED, message(key.principalArn(), c, byIdentity));
            }
            PolicyEvaluator.Decision byResource = resourceDecision(
                    caller, c, read.computeIfAbsent(c.resource(), r -> Optional.ofNullable(governing(r))));
            if (byResource == PolicyEvaluator.Decision.EXPLICIT_DENY) {
                throw new DynamoException(ErrorCode.ACCESS_DENIED, resourceDenyMessage(key.principalArn(), c));
            }
            if (byIdentity != PolicyEvaluator.Decision.ALLOW && byResource != PolicyEvaluator.Decision.ALLOW) {
                throw new DynamoException(ErrorCode.ACCESS_DENIED, message(key.principalArn(), c, byIdentity));
            }
        }
    }

    /**
     * The resource-based policy's say on one check: that of the table's policy for the table and its
     * indexes, of the stream's for a stream; IMPLICIT_DENY when there is none. The account's root may
     * always delete a policy (API Reference, DeleteResourcePolicy: so nobody is locked out).
     */
    private static PolicyEvaluator.Decision resourceDecision(
            Caller caller, AuthorizationCheck c, Optional<ResourcePolicies.Attached> governing) {
        if (governing.isEmpty()) {
            return PolicyEvaluator.Decision.IMPLICIT_DENY;
        }
        ResourcePolicies.Attached attached = governing.get();
        if (c.action().equals("DeleteResourcePolicy") && isRoot(caller)) {
            return PolicyEvaluator.Decision.ALLOW;
        }
        return PolicyEvaluator.evaluate(ResourcePolicyDocuments.parsed(attached.policy()), caller, c);
    }

    /** The policy of the table or stream a check's resource ARN names; null for "*" or no policy. */
    private ResourcePolicies.@Nullable Attached governing(String resourceArn) {
        int at = resourceArn.indexOf(TABLE_MARKER);
        if (at < 0) {
            return null;
        }
        String rest = resourceArn.substring(at + TABLE_MARKER.length());
        int stream = rest.indexOf(STREAM_MARKER);
        if (stream > 0) {
            return resourcePolicies.governing(
                    rest.substring(0, stream), rest.substring(stream + STREAM_MARKER.length()));
        }
        int index = rest.indexOf(INDEX_MARKER);
        return resourcePolicies.governing(index > 0 ? rest.substring(0, index) : rest, null);
    }

    private static boolean isRoot(Caller caller) {
        return caller.principalArn().equals("arn:aws:iam::" + caller.accountId() + ":root");
    }

    /**
     * Whether key may still PutResourcePolicy on resourceArn once policyText is its policy: what
     * PutResourcePolicy's ConfirmRemoveSelfResourceAccess is asked to confirm when it may not.
     */
    public static boolean keepsPutAccess(AccessKey key, String region, String resourceArn, String policyText) {
        Caller caller = new Caller(key.principalArn(), key.accountId(), key.principalTags(), region);
        AuthorizationCheck c = new AuthorizationCheck(
                "PutResourcePolicy", new ResourceArns(region, key.accountId()).rebase(resourceArn), Map.of());
        PolicyEvaluator.Decision byIdentity =
                key.policy() == null ? PolicyEvaluator.Decision.ALLOW : PolicyEvaluator.evaluate(parse(key), caller, c);
        PolicyEvaluator.Decision byResource =
                PolicyEvaluator.evaluate(ResourcePolicyDocuments.parsed(policyText), caller, c);
        return byIdentity != PolicyEvaluator.Decision.EXPLICIT_DENY
                && byResource != PolicyEvaluator.Decision.EXPLICIT_DENY
                && (byIdentity == PolicyEvaluator.Decision.ALLOW || byResource == PolicyEvaluator.Decision.ALLOW);
    }

    /** IAM's documented pattern for a resource policy's explicit deny; UNVERIFIED against a DynamoDB capture. */
    static String resourceDenyMessage(String principalArn, AuthorizationCheck c) {
        return "User: " + principalArn + " is not authorized to perform: " + c.qualifiedAction() + " on resource: "
                + c.resource() + " with an explicit deny in a resource-based policy";
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
