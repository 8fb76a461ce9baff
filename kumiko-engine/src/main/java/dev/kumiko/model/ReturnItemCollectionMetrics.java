package dev.kumiko.model;

/**
 * ReturnItemCollectionMetrics of the write operations. The constants are the wire names, declared
 * in the order DynamoDB lists the set in constraint messages.
 */
public enum ReturnItemCollectionMetrics {
    SIZE,
    NONE
}
