package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One legacy condition as decoded from JSON: an {@code ExpectedAttributeValue} (Value, Exists,
 * ComparisonOperator, AttributeValueList) or a {@code Condition} of KeyConditions / QueryFilter /
 * ScanFilter (ComparisonOperator, AttributeValueList only). Absent fields are null.
 */
public record LegacyCondition(
        @Nullable AttributeValue value,
        @Nullable Boolean exists,
        @Nullable String comparisonOperator,
        @Nullable List<AttributeValue> attributeValueList) {

    public static LegacyCondition of(String comparisonOperator, AttributeValue... values) {
        return new LegacyCondition(null, null, comparisonOperator, List.of(values));
    }
}
