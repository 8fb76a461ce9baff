package dev.kumiko.engine.replication;

/**
 * A replica's ReplicaStatus as DescribeTable shows it, members of DynamoDB's enum. CREATING lasts
 * while the existing items are copied to it (the backfill); Kumiko sets CREATING and ACTIVE today.
 */
public enum ReplicaStatus {
    CREATING,
    ACTIVE,
    UPDATING,
    DELETING
}
