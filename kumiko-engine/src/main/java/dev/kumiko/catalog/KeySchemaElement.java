package dev.kumiko.catalog;

public record KeySchemaElement(String attributeName, KeyType keyType) {}
