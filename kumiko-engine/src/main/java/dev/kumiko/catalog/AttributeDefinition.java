package dev.kumiko.catalog;

import dev.kumiko.model.AttributeType;

/** A key attribute's declared type: S, N or B. */
public record AttributeDefinition(String attributeName, AttributeType attributeType) {}
