package dev.kumiko.engine.failure;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A condition that did not hold. Carries the item as it was when the client asked for it with
 * ReturnValuesOnConditionCheckFailure = ALL_OLD (null otherwise, or when there was no item).
 */
public final class ConditionalCheckFailed extends DynamoException {
    public static final String MESSAGE = "The conditional request failed";
    private final @Nullable Map<String, AttributeValue> item;

    public ConditionalCheckFailed(@Nullable Map<String, AttributeValue> item) {
        super(ErrorCode.CONDITIONAL_CHECK_FAILED, MESSAGE);
        this.item = item;
    }

    public @Nullable Map<String, AttributeValue> item() {
        return item;
    }
}
