package dev.kumiko.engine.read;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.KeyCondition;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Key-condition values must have the schema's types; begins_with needs a string or binary key. */
final class QueryKeyTypes {
    private QueryKeyTypes() {}

    static void check(TableDescriptor d, List<String> sortKeyNames, KeyCondition key) {
        for (int i = 0; i < key.partitionKeyNames().size(); i++) {
            checkType(
                    d.attributeType(key.partitionKeyNames().get(i)),
                    key.partitionKeyValues().get(i));
        }
        for (int i = 0; i < key.sortKeyEqualities().size(); i++) {
            checkType(
                    d.attributeType(sortKeyNames.get(i)),
                    key.sortKeyEqualities().get(i));
        }
        KeyCondition.SortKeyCondition sort = key.sortKey();
        if (sort == null) {
            return;
        }
        AttributeType type = d.attributeType(sort.name());
        checkType(type, sort.value());
        if (sort.upper() != null) {
            checkType(type, sort.upper());
            if (!sort.matches(sort.upper()) || !sort.matches(sort.value())) {
                // Wording not verified against DynamoDB.
                throw DynamoException.validation("Invalid KeyConditionExpression: The BETWEEN operator requires upper "
                        + "bound to be greater than or equal to lower bound");
            }
        }
        if (sort.operator() == KeyCondition.SortKeyCondition.Operator.BEGINS_WITH && type == AttributeType.N) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation("Query key condition not supported");
        }
    }

    private static void checkType(@Nullable AttributeType expected, AttributeValue v) {
        if (v.type() != expected) {
            throw DynamoException.invalidParameter("Condition parameter type does not match schema type");
        }
    }
}
