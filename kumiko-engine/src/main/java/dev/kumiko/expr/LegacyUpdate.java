package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;

/** One {@code AttributeValueUpdate} of legacy AttributeUpdates; action null means PUT. */
public record LegacyUpdate(String action, AttributeValue value) {}
