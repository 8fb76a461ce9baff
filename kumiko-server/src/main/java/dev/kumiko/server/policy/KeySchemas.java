package dev.kumiko.server.policy;

import org.jspecify.annotations.Nullable;

/** Where the authorizer learns a table's partition key, to read dynamodb:LeadingKeys out of a request. */
@FunctionalInterface
public interface KeySchemas {
    /** The partition key attribute of the table, or of its index when indexName is not null; null when unknown. */
    @Nullable
    String partitionKey(String tableName, @Nullable String indexName);
}
