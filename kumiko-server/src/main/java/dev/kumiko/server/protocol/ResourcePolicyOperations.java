package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.control.ResourcePolicies;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.policy.AuthFacts;
import dev.kumiko.server.policy.AuthorizationCheck;
import dev.kumiko.server.policy.PolicyAuthorizer;
import dev.kumiko.server.policy.ResourceChecks;
import dev.kumiko.server.policy.ResourcePolicyDocuments;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Registrations of PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy, and the
 * ResourcePolicy member of CreateTable (engine: {@link ResourcePolicies}; documents judged by
 * {@link ResourcePolicyDocuments}).
 */
final class ResourcePolicyOperations {
    static final List<String> NAMES = List.of("PutResourcePolicy", "GetResourcePolicy", "DeleteResourcePolicy");

    private record Put(
            @Nullable String resourceArn,
            @Nullable String policy,
            @Nullable String expectedRevisionId,
            @Nullable Boolean confirmRemoveSelfResourceAccess) {}

    private record Delete(
            @Nullable String resourceArn, @Nullable String expectedRevisionId) {}

    private ResourcePolicyOperations() {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "PutResourcePolicy" ->
                dynamodb(
                        name,
                        b -> new Put(
                                Fields.string(b, "ResourceArn"),
                                Fields.string(b, "Policy"),
                                Fields.string(b, "ExpectedRevisionId"),
                                Fields.bool(b, "ConfirmRemoveSelfResourceAccess")),
                        ResourcePolicyOperations::put,
                        (g, revision, c) -> g.writeStringField("RevisionId", revision),
                        (r, f) -> ResourceChecks.arn("PutResourcePolicy", r.resourceArn(), f));
            case "GetResourcePolicy" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("ResourceArn"),
                        (e, r, c) -> e.resourcePolicies().get(r),
                        ResourcePolicyOperations::attached,
                        (r, f) -> ResourceChecks.arn("GetResourcePolicy", r, f));
            case "DeleteResourcePolicy" ->
                dynamodb(
                        name,
                        b -> new Delete(Fields.string(b, "ResourceArn"), Fields.string(b, "ExpectedRevisionId")),
                        (e, r, c) -> new Revision(e.resourcePolicies().delete(r.resourceArn(), r.expectedRevisionId())),
                        (g, t, c) -> {
                            if (t.id() != null) {
                                g.writeStringField("RevisionId", t.id());
                            }
                        },
                        (r, f) -> ResourceChecks.arn("DeleteResourcePolicy", r.resourceArn(), f));
            default -> throw new IllegalArgumentException("not a resource policy operation: " + name);
        };
    }

    /** CreateTable with its ResourcePolicy member (null when absent). */
    record Creating(
            VectorRequestReader.CreateTable table, @Nullable String resourcePolicy) {}

    static Creating creating(Map<String, Object> b) {
        return new Creating(VectorRequestReader.createTable(b), Fields.string(b, "ResourcePolicy"));
    }

    /**
     * Creates the table, then attaches its policy. The document is judged before the table is made,
     * so a bad one creates nothing; the table is a table's policy's resource (CreateTable cannot
     * attach one to a stream: Developer Guide, resource-based policy considerations). A crash
     * between the two commits would leave the table without its policy.
     */
    static VectorOperationsRegistration.Described create(
            Engine e, Creating r, Supplier<VectorOperationsRegistration.Described> create) {
        String policy = r.resourcePolicy();
        if (policy != null) {
            ResourcePolicies.checkSize(policy);
            ResourcePolicyDocuments.check(policy, false);
        }
        VectorOperationsRegistration.Described created = create.get();
        if (policy != null) {
            e.resourcePolicies().attachAtCreate(created.table().descriptor().tableName(), policy);
        }
        return created;
    }

    /** CreateTable's permissions: with a ResourcePolicy, PutResourcePolicy on the new table as well. */
    static List<AuthorizationCheck> createTableChecks(Creating r, AuthFacts f) {
        String name = r.table().table().tableName();
        List<AuthorizationCheck> create = ResourceChecks.table("CreateTable", name, f);
        if (r.resourcePolicy() == null) {
            return create;
        }
        List<AuthorizationCheck> both = new ArrayList<>(create);
        both.addAll(ResourceChecks.table("PutResourcePolicy", name, f));
        return List.copyOf(both);
    }

    /** DeleteResourcePolicy's answer: the removed policy's revision id, none when there was no policy. */
    private record Revision(@Nullable String id) {}

    private static String put(Engine e, Put r, CallContext c) {
        return e.resourcePolicies().put(r.resourceArn(), r.policy(), r.expectedRevisionId(), (policy, stream) -> {
            ResourcePolicyDocuments.check(policy, stream);
            confirmSelfAccess(c.caller(), c.region(), r, policy);
        });
    }

    /**
     * A signed caller whose new policy would leave it unable to change the policy again must say so
     * with ConfirmRemoveSelfResourceAccess (API Reference, PutResourcePolicy). Unsigned callers have
     * no identity to lock out.
     */
    private static void confirmSelfAccess(@Nullable AccessKey caller, String region, Put r, String policy) {
        if (caller == null || Boolean.TRUE.equals(r.confirmRemoveSelfResourceAccess()) || r.resourceArn() == null) {
            return;
        }
        if (!PolicyAuthorizer.keepsPutAccess(caller, region, r.resourceArn(), policy)) {
            // UNVERIFIED wording and class: DynamoDB documents the flag, not the refusal's text.
            throw DynamoException.validation("One or more parameter values were invalid: Invalid policy document: "
                    + "The policy would remove your permission to change it; set ConfirmRemoveSelfResourceAccess "
                    + "to true to attach it anyway");
        }
    }

    private static void attached(JsonGenerator g, ResourcePolicies.Attached a, CallContext c) throws IOException {
        g.writeStringField("Policy", a.policy());
        g.writeStringField("RevisionId", a.revisionId());
    }
}
