package dev.kumiko.model;

/**
 * Which attributes an index projects. The constants are the wire names, in the API Reference's
 * order (the order in DynamoDB's constraint message is unverified).
 */
public enum ProjectionType {
    ALL,
    KEYS_ONLY,
    INCLUDE
}
