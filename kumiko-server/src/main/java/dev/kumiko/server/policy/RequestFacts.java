package dev.kumiko.server.policy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.Comparator;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.ExpressionKind;
import dev.kumiko.expr.ExpressionNames;
import dev.kumiko.expr.ExpressionParser;
import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.expr.Operand;
import dev.kumiko.model.AttributeValue;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads the fine-grained condition keys out of a decoded request: {@code dynamodb:LeadingKeys}
 * (partition key values) and {@code dynamodb:Attributes} (top-level attribute names). Expressions
 * come from the engine's parse cache ({@link ExpressionParser}), so the engine reuses the tree
 * parsed here and no text is parsed twice. Best effort by design: an expression that does not
 * parse contributes nothing, because the engine rejects that request with DynamoDB's own error
 * after authorization; it can never make a request succeed that would otherwise fail.
 */
final class RequestFacts {
    private RequestFacts() {}

    /** The partition key's value in an item or key, as text; nothing when absent or not a scalar. */
    static void leadingKey(
            @Nullable Map<String, AttributeValue> item, @Nullable String partitionKey, Collection<String> out) {
        if (partitionKey == null || item == null) {
            return;
        }
        addIfScalar(item.get(partitionKey), out);
    }

    /** The text of an S, N or B value (S as is, N in DynamoDB's normal form, B in base64); null otherwise. */
    static @Nullable String scalarText(@Nullable AttributeValue v) {
        if (v instanceof AttributeValue.S s) {
            return s.value();
        }
        if (v instanceof AttributeValue.N n) {
            return n.value().toString();
        }
        if (v instanceof AttributeValue.B b) {
            return Base64.getEncoder().encodeToString(b.value());
        }
        return null;
    }

    /** The names of a map keyed by attribute name (an item, a key, a legacy parameter); nothing when null. */
    static void names(@Nullable Map<String, ?> byName, Set<String> out) {
        if (byName != null) {
            out.addAll(byName.keySet());
        }
    }

    static void names(@Nullable List<String> attributesToGet, Set<String> out) {
        if (attributesToGet != null) {
            out.addAll(attributesToGet);
        }
    }

    /** The top-level attribute names an expression touches, placeholders resolved through names. */
    static void expression(
            @Nullable String text, ExpressionKind kind, @Nullable Map<String, String> names, Set<String> out) {
        if (text == null || text.isBlank()) {
            return;
        }
        Map<String, String> resolved = names == null ? Map.of() : names;
        try {
            switch (kind) {
                case UPDATE -> ExpressionNames.of(ExpressionParser.update(text), resolved, out);
                case PROJECTION -> ExpressionNames.of(ExpressionParser.projection(text), resolved, out);
                default -> ExpressionNames.of(ExpressionParser.condition(text, kind), resolved, out);
            }
        } catch (DynamoException e) {
            // Not parseable: the engine answers the request with DynamoDB's ValidationException.
        }
    }

    /**
     * The partition key values a Query names: the right side of {@code pk = :v} in its
     * KeyConditionExpression (either side order), or the EQ value of KeyConditions.
     */
    static void queryLeadingKeys(
            @Nullable String keyConditionExpression,
            @Nullable Map<String, LegacyCondition> keyConditions,
            @Nullable Map<String, String> names,
            @Nullable Map<String, AttributeValue> values,
            @Nullable String partitionKey,
            Collection<String> out) {
        if (partitionKey == null) {
            return;
        }
        if (keyConditions != null) {
            LegacyCondition c = keyConditions.get(partitionKey);
            if (c != null
                    && "EQ".equals(c.comparisonOperator())
                    && c.attributeValueList() != null
                    && c.attributeValueList().size() == 1) {
                addIfScalar(c.attributeValueList().get(0), out);
            }
            return;
        }
        if (keyConditionExpression == null || keyConditionExpression.isBlank()) {
            return;
        }
        Condition c;
        try {
            c = ExpressionParser.condition(keyConditionExpression, ExpressionKind.KEY_CONDITION);
        } catch (DynamoException e) {
            return;
        }
        equalities(c, partitionKey, names == null ? Map.of() : names, values == null ? Map.of() : values, out);
    }

    private static void equalities(
            Condition c,
            String partitionKey,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            Collection<String> out) {
        if (c instanceof Condition.And and) {
            equalities(and.left(), partitionKey, names, values, out);
            equalities(and.right(), partitionKey, names, values, out);
        } else if (c instanceof Condition.Compare cmp && cmp.comparator() == Comparator.EQ) {
            if (names(cmp.left(), partitionKey, names) && cmp.right() instanceof Operand.ValueRef v) {
                addIfScalar(values.get(v.name()), out);
            } else if (names(cmp.right(), partitionKey, names) && cmp.left() instanceof Operand.ValueRef v) {
                addIfScalar(values.get(v.name()), out);
            }
        }
    }

    private static boolean names(Operand o, String attribute, Map<String, String> names) {
        if (!(o instanceof Operand.Path p) || p.elements().size() != 1) {
            return false;
        }
        String first = p.firstName();
        return attribute.equals(first.startsWith("#") ? names.get(first) : first);
    }

    private static void addIfScalar(@Nullable AttributeValue v, Collection<String> out) {
        String text = scalarText(v);
        if (text != null) {
            out.add(text);
        }
    }
}
