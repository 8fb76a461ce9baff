package dev.kumiko.server.policy;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The authorization rules of the control plane and of DynamoDB Streams: one permission, on the
 * account ("*"), on a table, on a ResourceArn or on a stream. A rule given a null name or ARN asks
 * for the permission on "*", so a request that the engine will reject is still not let through
 * unchecked.
 */
public final class ResourceChecks {
    private ResourceChecks() {}

    /** Account-level operations (ListTables, DescribeLimits, DescribeEndpoints, ListStreams...). */
    public static List<AuthorizationCheck> account(String action) {
        return List.of(new AuthorizationCheck(action, ResourceArns.ANY, Map.of()));
    }

    /** An operation on the table its TableName (a name or an ARN) designates. */
    public static List<AuthorizationCheck> table(String action, @Nullable String tableNameOrArn, AuthFacts f) {
        return List.of(new AuthorizationCheck(
                action, tableNameOrArn == null ? ResourceArns.ANY : f.arns().table(tableNameOrArn), Map.of()));
    }

    /**
     * SearchVectors: on the vector index (Developer Guide: the resource is
     * {@code table/NAME/index/INDEX}); on the table when no index is named.
     */
    public static List<AuthorizationCheck> tableIndex(
            String action, @Nullable String tableNameOrArn, @Nullable String indexName, AuthFacts f) {
        if (tableNameOrArn == null || indexName == null) {
            return table(action, tableNameOrArn, f);
        }
        return List.of(new AuthorizationCheck(action, f.arns().index(tableNameOrArn, indexName), Map.of()));
    }

    /** An operation addressed by an ARN the request carries (tagging, stream ARNs). */
    public static List<AuthorizationCheck> arn(String action, @Nullable String arn, AuthFacts f) {
        return List.of(new AuthorizationCheck(
                action, arn == null ? ResourceArns.ANY : f.arns().rebase(arn), Map.of()));
    }

    /** GetRecords: on the stream its iterator was issued for. */
    public static List<AuthorizationCheck> shardIterator(String action, @Nullable String iterator, AuthFacts f) {
        // Kumiko's iterators, like DynamoDB's, start with the stream ARN: "<streamArn>|1|<payload>".
        if (iterator == null) {
            return arn(action, null, f);
        }
        int bar = iterator.indexOf('|');
        return arn(action, bar > 0 ? iterator.substring(0, bar) : null, f);
    }
}
