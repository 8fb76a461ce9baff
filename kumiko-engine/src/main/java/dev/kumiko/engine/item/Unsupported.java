package dev.kumiko.engine.item;

import dev.kumiko.error.DynamoException;
import java.util.List;
import java.util.Map;

/**
 * Refuses request members whose feature has not landed yet, with a ValidationException that says
 * so: a test must never pass because a condition or projection was silently ignored.
 */
final class Unsupported {
    private Unsupported() {}

    static void conditions(ItemRequests.Conditions c) {
        if (c != null && !c.isEmpty()) {
            throw DynamoException.validation("Kumiko does not support ConditionExpression, Expected, "
                    + "ConditionalOperator or expression attributes on this operation yet");
        }
    }

    static void projection(String projectionExpression, Map<String, String> names, List<String> attributesToGet) {
        if (projectionExpression != null || names != null || attributesToGet != null) {
            throw DynamoException.validation("Kumiko does not support ProjectionExpression, "
                    + "ExpressionAttributeNames or AttributesToGet on this operation yet");
        }
    }
}
