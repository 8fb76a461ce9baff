package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.List;

/**
 * One legacy condition as decoded from JSON: an {@code ExpectedAttributeValue} (Value, Exists,
 * ComparisonOperator, AttributeValueList) or a {@code Condition} of KeyConditions / QueryFilter /
 * ScanFilter (ComparisonOperator, AttributeValueList only). Absent fields are null.
 */
public record LegacyCondition(AttributeValue value, Boolean exists, String comparisonOperator,
                              List<AttributeValue> attributeValueList) {

    public static LegacyCondition of(String comparisonOperator, AttributeValue... values) {
        return new LegacyCondition(null, null, comparisonOperator, List.of(values));
    }
}
