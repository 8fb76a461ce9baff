package dev.kumiko.engine.changelog;

/**
 * Who made a change: a client request, or DynamoDB itself deleting an expired item (its stream
 * record then carries the service identity, which is how consumers tell TTL deletes apart).
 */
public enum ChangeOrigin {
    CLIENT,
    TIME_TO_LIVE
}
