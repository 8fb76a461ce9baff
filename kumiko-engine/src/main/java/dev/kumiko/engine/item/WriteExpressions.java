package dev.kumiko.engine.item;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.expr.RequestExpressions;
import java.util.ArrayList;
import java.util.List;

/** Builds the expressions of a write request, refusing legacy members until they are served. */
final class WriteExpressions {
    private WriteExpressions() {}

    static RequestExpressions of(ItemRequests.Conditions c, String updateExpression, TableDescriptor d) {
        if (c.hasExpected() || c.conditionalOperator() != null) {
            throw dev.kumiko.error.DynamoException.validation(
                    "Kumiko does not support the legacy Expected and ConditionalOperator parameters yet");
        }
        List<String> keys = new ArrayList<>(2);
        keys.add(d.hashKeyName());
        if (d.rangeKeyName() != null) {
            keys.add(d.rangeKeyName());
        }
        return RequestExpressions.builder()
                .conditionExpression(c.conditionExpression())
                .updateExpression(updateExpression)
                .expressionAttributeNames(c.expressionAttributeNames())
                .expressionAttributeValues(c.expressionAttributeValues())
                .keyAttributeNames(keys)
                .build();
    }
}
