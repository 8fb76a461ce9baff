package dev.kumiko.model;

/**
 * Select of Query and Scan. The constants are the wire names, declared in the order DynamoDB lists
 * the set in constraint messages (observed in a third-party capture).
 */
public enum Select {
    SPECIFIC_ATTRIBUTES,
    COUNT,
    ALL_ATTRIBUTES,
    ALL_PROJECTED_ATTRIBUTES
}
