package dev.kumiko.catalog;

import dev.kumiko.model.KeyType;

public record KeySchemaElement(String attributeName, KeyType keyType) {}
