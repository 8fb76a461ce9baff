package dev.kumiko.server.policy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.Comparator;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.ExpressionKind;
import dev.kumiko.expr.ExpressionNames;
import dev.kumiko.expr.ExpressionParser;
import dev.kumiko.expr.Operand;
import dev.kumiko.server.json.JsonNumber;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the fine-grained condition keys out of a request body as the JSON tree holds it:
 * {@code dynamodb:LeadingKeys} (partition key values) and {@code dynamodb:Attributes} (top-level
 * attribute names). Best effort by design: a member of the wrong shape or an expression that does
 * not parse contributes nothing, because the engine rejects that request with DynamoDB's own error
 * after authorization; it can never make a request succeed that would otherwise fail.
 */
final class RequestFacts {
    /** Expression members whose attribute names count, with the grammar each is parsed in. */
    private static final Map<String, ExpressionKind> EXPRESSIONS = Map.of(
            "ConditionExpression", ExpressionKind.CONDITION,
            "FilterExpression", ExpressionKind.FILTER,
            "KeyConditionExpression", ExpressionKind.KEY_CONDITION,
            "ProjectionExpression", ExpressionKind.PROJECTION,
            "UpdateExpression", ExpressionKind.UPDATE);
    /** Members whose keys are attribute names: items and keys, and the legacy parameters. */
    private static final List<String> NAME_MAPS = List.of("Key", "Item", "Expected", "AttributeUpdates",
            "QueryFilter", "ScanFilter", "KeyConditions");

    private RequestFacts() {}

    /** The partition key's value in an item or key (wire form), as text; nothing when absent. */
    static void leadingKey(Object item, String partitionKey, Collection<String> out) {
        if (partitionKey == null || !(item instanceof Map<?, ?> m)) {
            return;
        }
        String text = scalarText(m.get(partitionKey));
        if (text != null) {
            out.add(text);
        }
    }

    /**
     * The text of an S, N or B wire value ({"S": "USER#alice"} gives USER#alice; N its digits as
     * sent; B its base64); null for anything else.
     */
    static String scalarText(Object wireValue) {
        if (!(wireValue instanceof Map<?, ?> v) || v.size() != 1) {
            return null;
        }
        Object payload = v.values().iterator().next();
        Object type = v.keySet().iterator().next();
        if (!"S".equals(type) && !"N".equals(type) && !"B".equals(type)) {
            return null;
        }
        return payload instanceof String s ? s : payload instanceof JsonNumber n ? n.text() : null;
    }

    /** Every top-level attribute name a request (or a batch/transaction entry) names. */
    static void attributes(Map<String, Object> body, Set<String> out) {
        for (String member : NAME_MAPS) {
            if (body.get(member) instanceof Map<?, ?> m) {
                for (Object name : m.keySet()) {
                    out.add((String) name);
                }
            }
        }
        if (body.get("AttributesToGet") instanceof List<?> names) {
            for (Object n : names) {
                if (n instanceof String s) {
                    out.add(s);
                }
            }
        }
        Map<String, String> names = expressionNames(body);
        EXPRESSIONS.forEach((member, kind) -> expressionAttributes(body.get(member), kind, names, out));
    }

    private static void expressionAttributes(Object text, ExpressionKind kind, Map<String, String> names,
            Set<String> out) {
        if (!(text instanceof String s) || s.isBlank()) {
            return;
        }
        try {
            switch (kind) {
                case UPDATE -> ExpressionNames.of(ExpressionParser.update(s), names, out);
                case PROJECTION -> ExpressionNames.of(ExpressionParser.projection(s), names, out);
                default -> ExpressionNames.of(ExpressionParser.condition(s, kind), names, out);
            }
        } catch (DynamoException e) {
            // Not parseable: the engine answers the request with DynamoDB's ValidationException.
        }
    }

    /**
     * The partition key values a Query names: the right side of {@code pk = :v} in its
     * KeyConditionExpression (either side order), or the EQ value of KeyConditions.
     */
    static void queryLeadingKeys(Map<String, Object> body, String partitionKey, Collection<String> out) {
        if (partitionKey == null) {
            return;
        }
        if (body.get("KeyConditions") instanceof Map<?, ?> legacy) {
            if (legacy.get(partitionKey) instanceof Map<?, ?> c && "EQ".equals(c.get("ComparisonOperator"))
                    && c.get("AttributeValueList") instanceof List<?> values && values.size() == 1) {
                addIfScalar(values.get(0), out);
            }
            return;
        }
        if (!(body.get("KeyConditionExpression") instanceof String text) || text.isBlank()) {
            return;
        }
        Condition c;
        try {
            c = ExpressionParser.condition(text, ExpressionKind.KEY_CONDITION);
        } catch (DynamoException e) {
            return;
        }
        Map<String, String> names = expressionNames(body);
        Map<?, ?> values = body.get("ExpressionAttributeValues") instanceof Map<?, ?> m ? m : Map.of();
        equalities(c, partitionKey, names, values, out);
    }

    private static void equalities(Condition c, String partitionKey, Map<String, String> names, Map<?, ?> values,
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

    private static void addIfScalar(Object wireValue, Collection<String> out) {
        String text = scalarText(wireValue);
        if (text != null) {
            out.add(text);
        }
    }

    private static Map<String, String> expressionNames(Map<String, Object> body) {
        if (!(body.get("ExpressionAttributeNames") instanceof Map<?, ?> raw)) {
            return Map.of();
        }
        Map<String, String> out = new java.util.HashMap<>();
        raw.forEach((k, v) -> {
            if (v instanceof String s) {
                out.put((String) k, s);
            }
        });
        return out;
    }
}
