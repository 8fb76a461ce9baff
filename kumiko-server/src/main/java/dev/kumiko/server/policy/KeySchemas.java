package dev.kumiko.server.policy;

/** Where the authorizer learns a table's partition key, to read dynamodb:LeadingKeys out of a request. */
@FunctionalInterface
public interface KeySchemas {
    /** The partition key attribute of the table, or of its index when indexName is not null; null when unknown. */
    String partitionKey(String tableName, String indexName);
}
