package dev.kumiko.model;

/** An item that knows its DynamoDB size without walking its AttributeValues (a stored item). */
public interface SizedItem {
    long sizeBytes();
}
