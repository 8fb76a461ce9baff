package dev.kumiko.model;

/** A table's TableClass; constants are the wire names, in DynamoDB's constraint-message order. */
public enum TableClass {
    STANDARD,
    STANDARD_INFREQUENT_ACCESS
}
