package dev.kumiko.engine.changelog;

/**
 * Who made a change: a client request, DynamoDB itself deleting an expired item (its stream
 * record then carries the service identity, which is how consumers tell TTL deletes apart), or
 * another region's write applied to this region's replica of a global table (its stream record
 * looks like a client's, as DynamoDB's do; the replication shipper does not send it back).
 * Stored by ordinal: new members go last.
 */
public enum ChangeOrigin {
    CLIENT,
    TIME_TO_LIVE,
    REPLICATION
}
