package dev.kumiko.model;

/**
 * A StreamSpecification's StreamViewType. The constants are the wire names, in the API Reference's
 * order (the order in DynamoDB's constraint message is unverified).
 */
public enum StreamViewType {
    NEW_IMAGE,
    OLD_IMAGE,
    NEW_AND_OLD_IMAGES,
    KEYS_ONLY
}
