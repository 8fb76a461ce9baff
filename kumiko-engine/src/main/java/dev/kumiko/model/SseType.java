package dev.kumiko.model;

/** An SSESpecification's SSEType; constants are the wire names, in the API Reference's order. */
public enum SseType {
    AES256,
    KMS
}
