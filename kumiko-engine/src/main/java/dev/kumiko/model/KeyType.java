package dev.kumiko.model;

/** The role of a key attribute; constants are the wire names, in DynamoDB's (observed) order. */
public enum KeyType {
    HASH,
    RANGE
}
