package dev.kumiko.model;

/**
 * A table's BillingMode. The constants are the wire names, declared in the order DynamoDB lists
 * the set in constraint messages.
 */
public enum BillingMode {
    PROVISIONED,
    PAY_PER_REQUEST
}
