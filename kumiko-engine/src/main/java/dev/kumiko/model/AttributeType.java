package dev.kumiko.model;

import org.jspecify.annotations.Nullable;

/** DynamoDB's ten data type descriptors, named as they appear on the wire. */
public enum AttributeType {
    S,
    N,
    B,
    SS,
    NS,
    BS,
    M,
    L,
    NULL,
    BOOL;

    /** Whether this type may be a key attribute type (ScalarAttributeType). */
    public boolean isScalarKeyType() {
        return this == S || this == N || this == B;
    }

    public boolean isSet() {
        return this == SS || this == NS || this == BS;
    }

    /** The wire name; the enum names already match DynamoDB's descriptors. */
    public String wireName() {
        return name();
    }

    /** Parses a wire descriptor, or returns null when it is not one of the ten. */
    public static @Nullable AttributeType fromWire(String name) {
        switch (name) {
            case "S":
                return S;
            case "N":
                return N;
            case "B":
                return B;
            case "SS":
                return SS;
            case "NS":
                return NS;
            case "BS":
                return BS;
            case "M":
                return M;
            case "L":
                return L;
            case "NULL":
                return NULL;
            case "BOOL":
                return BOOL;
            default:
                return null;
        }
    }
}
