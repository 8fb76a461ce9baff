package dev.kumiko.engine.item;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.ItemNames;
import dev.kumiko.engine.check.KeyPathCheck;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.LegacyExpressions;
import dev.kumiko.expr.LegacyUpdate;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.expr.UpdateExpression;
import dev.kumiko.expr.UpdateResult;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A write request's condition and update, from expressions or from the legacy Expected /
 * ConditionalOperator / AttributeUpdates members, never both (DynamoDB refuses the mix).
 */
final class WritePlan {
    private final RequestExpressions expressions;
    private final @Nullable Condition legacyCondition;
    private final @Nullable UpdateExpression legacyUpdate;
    private final @Nullable Map<String, LegacyUpdate> attributeUpdates;

    private WritePlan(
            RequestExpressions expressions,
            @Nullable Condition legacyCondition,
            @Nullable UpdateExpression legacyUpdate,
            @Nullable Map<String, LegacyUpdate> attributeUpdates) {
        this.expressions = expressions;
        this.legacyCondition = legacyCondition;
        this.legacyUpdate = legacyUpdate;
        this.attributeUpdates = attributeUpdates;
    }

    /**
     * Parses and checks what needs no table: DynamoDB refuses a bad expression or Expected even when
     * the table does not exist. {@link #checkKeys} adds the checks that need the table's key schema.
     */
    static WritePlan of(
            ItemRequests.Conditions c,
            @Nullable String updateExpression,
            @Nullable Map<String, LegacyUpdate> attributeUpdates) {
        checkNotMixed(c, updateExpression, attributeUpdates);
        LegacyExpressions.checkConditionalOperator(c.conditionalOperator(), c.expected());
        RequestExpressions expr = RequestExpressions.builder()
                .conditionExpression(c.conditionExpression())
                .updateExpression(updateExpression)
                .expressionAttributeNames(c.expressionAttributeNames())
                .expressionAttributeValues(c.expressionAttributeValues())
                .keyAttributeNames(List.of())
                .build();
        Condition legacyCondition =
                c.expected() == null ? null : LegacyExpressions.expected(c.expected(), c.conditionalOperator());
        UpdateExpression legacyUpdate =
                attributeUpdates == null ? null : LegacyExpressions.attributeUpdates(attributeUpdates, List.of());
        if (attributeUpdates != null) {
            ItemNames.checkUpdates(attributeUpdates);
        }
        if (updateExpression != null && c.expressionAttributeValues() != null) {
            // A value an update writes holds names of the item to be (DynamoDB refuses a map key
            // over 65,535 bytes in SET doc = :v, a capture shows).
            c.expressionAttributeValues().values().forEach(ItemNames::checkValue);
        }
        return new WritePlan(expr, legacyCondition, legacyUpdate, attributeUpdates);
    }

    /** A condition or update may not reach into a key attribute (table or index). */
    void checkKeyPaths(TableDescriptor d) {
        KeyPathCheck.check(d, expressions);
    }

    /** An update may not touch the table's key attributes. */
    void checkKeys(TableDescriptor d) {
        List<String> keys = keyNames(d);
        if (attributeUpdates != null) {
            LegacyExpressions.attributeUpdates(attributeUpdates, keys);
        }
        expressions.checkUpdateKeys(keys);
    }

    private static void checkNotMixed(
            ItemRequests.Conditions c,
            @Nullable String updateExpression,
            @Nullable Map<String, LegacyUpdate> attributeUpdates) {
        List<String> legacy = new ArrayList<>(3);
        if (attributeUpdates != null) {
            legacy.add("AttributeUpdates");
        }
        if (c.expected() != null) {
            legacy.add("Expected");
        }
        if (c.conditionalOperator() != null) {
            legacy.add("ConditionalOperator");
        }
        List<String> modern = new ArrayList<>(2);
        if (updateExpression != null) {
            modern.add("UpdateExpression");
        }
        if (c.conditionExpression() != null) {
            modern.add("ConditionExpression");
        }
        LegacyExpressions.checkNotMixed(legacy, modern);
    }

    private static List<String> keyNames(TableDescriptor d) {
        List<String> keys = new ArrayList<>(2);
        keys.add(d.hashKeyName());
        if (d.rangeKeyName() != null) {
            keys.add(d.rangeKeyName());
        }
        return keys;
    }

    /** The condition holds on the current item (the empty map when there is none). */
    boolean test(Map<String, AttributeValue> current) {
        if (legacyCondition != null) {
            return LegacyExpressions.test(legacyCondition, current);
        }
        return expressions.testCondition(current);
    }

    /** An empty AttributeUpdates counts as no update: DynamoDB then creates the item from its key. */
    boolean hasUpdate() {
        return legacyUpdate != null ? !legacyUpdate.actions().isEmpty() : expressions.hasUpdate();
    }

    /** Only REMOVEs (or legacy DELETEs without a value): on a missing item a no-op, not an error. */
    boolean onlyRemoves() {
        return legacyUpdate != null ? LegacyExpressions.onlyRemoves(legacyUpdate) : expressions.updateOnlyRemoves();
    }

    UpdateResult apply(Map<String, AttributeValue> item) {
        return legacyUpdate != null ? LegacyExpressions.apply(legacyUpdate, item) : expressions.applyUpdate(item);
    }
}
