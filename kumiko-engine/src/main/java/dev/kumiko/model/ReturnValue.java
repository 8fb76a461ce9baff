package dev.kumiko.model;

/**
 * ReturnValues of PutItem, UpdateItem and DeleteItem: which attributes the write returns. The
 * constants are the wire names, declared in the order DynamoDB lists the set in constraint
 * messages (the API Reference's order; unverified against a captured message).
 */
public enum ReturnValue {
    NONE,
    ALL_OLD,
    UPDATED_OLD,
    ALL_NEW,
    UPDATED_NEW
}
