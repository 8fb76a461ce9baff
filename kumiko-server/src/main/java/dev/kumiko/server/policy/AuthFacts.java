package dev.kumiko.server.policy;

import org.jspecify.annotations.Nullable;

/**
 * What an {@link AuthRule} may know besides the request: the caller's ARNs (region and account)
 * and the key schemas of the tables named, for {@code dynamodb:LeadingKeys}.
 */
public final class AuthFacts {
    private final ResourceArns arns;
    private final KeySchemas schemas;

    AuthFacts(ResourceArns arns, KeySchemas schemas) {
        this.arns = arns;
        this.schemas = schemas;
    }

    /** For tests and tools: the facts of a caller signing for region in accountId. */
    public static AuthFacts of(String region, String accountId, KeySchemas schemas) {
        return new AuthFacts(new ResourceArns(region, accountId), schemas);
    }

    ResourceArns arns() {
        return arns;
    }

    /** The partition key of the table (a name or an ARN), or of its index; null when unknown. */
    @Nullable
    String partitionKey(String tableNameOrArn, @Nullable String indexName) {
        String name = ResourceArns.tableName(tableNameOrArn);
        return name == null ? null : schemas.partitionKey(name, indexName);
    }
}
