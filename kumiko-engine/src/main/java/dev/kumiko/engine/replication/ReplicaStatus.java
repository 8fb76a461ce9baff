package dev.kumiko.engine.replication;

/**
 * A replica's ReplicaStatus as DescribeTable shows it. CREATING lasts while the existing items
 * are copied to it (the backfill); DELETING while its region drops it.
 */
public enum ReplicaStatus {
    CREATING,
    ACTIVE,
    UPDATING,
    DELETING,
    /** Its region did not answer the last attempts to ship changes to it; they are kept for it. */
    INACCESSIBLE
}
