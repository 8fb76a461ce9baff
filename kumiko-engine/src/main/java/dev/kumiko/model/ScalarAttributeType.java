package dev.kumiko.model;

/**
 * The type of a key attribute in AttributeDefinitions: the scalar subset of {@link AttributeType},
 * declared in the order DynamoDB prints the set in constraint messages (observed: [B, N, S]).
 */
public enum ScalarAttributeType {
    B,
    N,
    S;

    public AttributeType attributeType() {
        switch (this) {
            case B:
                return AttributeType.B;
            case N:
                return AttributeType.N;
            default:
                return AttributeType.S;
        }
    }
}
