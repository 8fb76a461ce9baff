package dev.kumiko.model;

/**
 * ReturnValuesOnConditionCheckFailure: whether a failed condition returns the item as it was. The
 * constants are the wire names, declared in the order DynamoDB lists the set in constraint messages.
 */
public enum ReturnValuesOnConditionCheckFailure {
    ALL_OLD,
    NONE
}
