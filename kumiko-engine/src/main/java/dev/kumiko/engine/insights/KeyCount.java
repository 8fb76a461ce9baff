package dev.kumiko.engine.insights;

import dev.kumiko.model.AttributeValue;
import org.jspecify.annotations.Nullable;

/**
 * One key of a Contributor Insights rule and the requests counted for it: the sort key is null for
 * the partition-key rules. The count may exceed the true one by what the key inherited when it
 * displaced a rarer key ({@link TopKeys}); a key that stays hot is counted exactly from then on.
 */
public record KeyCount(
        AttributeValue partitionKey, @Nullable AttributeValue sortKey, long count) {}
