package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.MemberConstraintException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Maps the legacy parameters (Expected, QueryFilter, ScanFilter, KeyConditions, AttributeUpdates,
 * AttributesToGet) onto the expression AST, with literal operands and plain attribute names (no
 * placeholders, no reserved-word rules). Messages marked unverified are modelled on the verified
 * "Invalid number of argument(s) for the EQ ComparisonOperator".
 */
public final class LegacyExpressions {
    private LegacyExpressions() {}

    /** Evaluates a condition built by this class (no placeholders to bind). */
    public static boolean test(Condition condition, Map<String, AttributeValue> item) {
        return new ConditionEvaluator(Map.of(), Map.of()).test(condition, item);
    }

    /** The legacy update only deletes attributes (DELETE without a value), or is empty. */
    public static boolean onlyRemoves(UpdateExpression update) {
        return RequestExpressions.onlyRemoves(update);
    }

    /** Applies an update built by {@link #attributeUpdates}. */
    public static UpdateResult apply(UpdateExpression update, Map<String, AttributeValue> item) {
        return new UpdateApplier(Map.of(), Map.of()).apply(update, item);
    }

    public static Map<String, AttributeValue> project(
            ProjectionExpression projection, Map<String, AttributeValue> item) {
        return Projector.project(item, projection.paths());
    }

    /** Rejects requests that mix the two styles, naming both sides as DynamoDB does. */
    public static void checkNotMixed(
            Collection<String> nonExpressionParameters, Collection<String> expressionParameters) {
        if (!nonExpressionParameters.isEmpty() && !expressionParameters.isEmpty()) {
            throw DynamoException.validation(
                    "Can not use both expression and non-expression parameters in the same request:"
                            + " Non-expression parameters: {" + String.join(", ", nonExpressionParameters) + "}"
                            + " Expression parameters: {" + String.join(", ", expressionParameters) + "}");
        }
    }

    /**
     * ConditionalOperator is AND or OR and needs the conditions it combines. The enum text is
     * DynamoDB's model constraint; the missing-conditions wording is UNVERIFIED.
     */
    public static void checkConditionalOperator(
            @Nullable String conditionalOperator, @Nullable Map<String, ?> conditions) {
        if (conditionalOperator == null) {
            return;
        }
        if (!conditionalOperator.equals("AND") && !conditionalOperator.equals("OR")) {
            throw new MemberConstraintException("1 validation error detected: Value '" + conditionalOperator
                    + "' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: "
                    + "[AND, OR]");
        }
        if (conditions == null || conditions.isEmpty()) {
            throw DynamoException.invalidParameter(
                    "ConditionalOperator can only be used when Filter or Expected has " + "two or more elements");
        }
    }

    /** AttributesToGet: at least one name, none twice. The duplicate wording is UNVERIFIED. */
    public static void checkAttributesToGet(@Nullable List<String> names) {
        if (names == null) {
            return;
        }
        if (names.isEmpty()) {
            throw new MemberConstraintException(
                    "1 validation error detected: Value '[]' at 'attributesToGet' failed to "
                            + "satisfy constraint: Member must have length greater than or equal to 1");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String n : names) {
            if (!seen.add(n)) {
                throw DynamoException.invalidParameter("Duplicate value in attribute name: " + n);
            }
        }
    }

    /** Expected (with Exists / Value shorthand) combined by ConditionalOperator (null means AND). */
    public static @Nullable Condition expected(
            Map<String, LegacyCondition> expected, @Nullable String conditionalOperator) {
        List<Condition> parts = new ArrayList<>();
        expected.forEach((name, c) -> parts.add(expectedOne(name, c)));
        return combine(parts, conditionalOperator);
    }

    /** QueryFilter / ScanFilter / KeyConditions: ComparisonOperator + AttributeValueList only. */
    public static @Nullable Condition filter(
            Map<String, LegacyCondition> conditions, @Nullable String conditionalOperator) {
        List<Condition> parts = new ArrayList<>();
        conditions.forEach((name, c) -> parts.add(compare(name, c.comparisonOperator(), arguments(name, c))));
        return combine(parts, conditionalOperator);
    }

    /** Top-level attribute names a legacy condition reads. */
    public static java.util.Set<String> topLevelNames(Condition c) {
        return ConditionPaths.of(c, Map.of(), new java.util.LinkedHashSet<>());
    }

    public static KeyCondition keyConditions(
            Map<String, LegacyCondition> conditions, List<String> partitionKeyNames, List<String> sortKeyNames) {
        for (LegacyCondition c : conditions.values()) {
            switch (LegacyOperator.parse(c.comparisonOperator())) {
                case EQ:
                case LE:
                case LT:
                case GE:
                case GT:
                case BEGINS_WITH:
                case BETWEEN:
                    break;
                default:
                    throw DynamoException.invalidParameter(
                            "Attempted conditional constraint is not an indexable operation");
            }
        }
        if (conditions.isEmpty()) {
            // Found by the fuzzer (KeyConditions {}): no condition names the partition key.
            throw DynamoException.validation("Query condition missed key schema element: " + partitionKeyNames.get(0));
        }
        Condition all = Objects.requireNonNull(filter(conditions, "AND"), "conditions are not empty");
        return KeyCondition.extract(all, Map.of(), Map.of(), partitionKeyNames, sortKeyNames);
    }

    public static ProjectionExpression attributesToGet(List<String> names) {
        List<Operand.Path> paths = new ArrayList<>();
        for (String n : names) {
            paths.add(Operand.Path.of(n));
        }
        return new ProjectionExpression(paths);
    }

    /** AttributeUpdates as an UpdateExpression; ADD of a list appends, as the legacy API documents. */
    public static UpdateExpression attributeUpdates(
            Map<String, LegacyUpdate> updates, Collection<String> keyAttributeNames) {
        List<UpdateAction> actions = new ArrayList<>();
        updates.forEach((name, u) -> {
            if (keyAttributeNames.contains(name)) {
                throw DynamoException.invalidParameter(
                        "Cannot update attribute " + name + ". This attribute is part of the key");
            }
            actions.add(updateAction(name, u.action() == null ? "PUT" : u.action(), u.value()));
        });
        return new UpdateExpression(actions);
    }

    private static UpdateAction updateAction(String name, String action, AttributeValue value) {
        Operand.Path path = Operand.Path.of(name);
        if (value == null && !action.equals("DELETE")) {
            throw DynamoException.invalidParameter(
                    "Only DELETE action is allowed when no attribute value is specified");
        }
        switch (action) {
            case "PUT":
                return new UpdateAction.Set(path, new Operand.Literal(value));
            case "DELETE":
                if (value == null) {
                    return new UpdateAction.Remove(path);
                }
                if (!value.type().isSet()) {
                    // Unverified wording.
                    throw DynamoException.invalidParameter(
                            "DELETE action with value is not supported for the type " + value.type());
                }
                return new UpdateAction.Delete(path, new Operand.Literal(value));
            case "ADD":
                if (value.type() == AttributeType.L) {
                    Operand existing = new Operand.IfNotExists(path, new Operand.Literal(AttributeValue.l(List.of())));
                    return new UpdateAction.Set(path, new Operand.ListAppend(existing, new Operand.Literal(value)));
                }
                if (value.type() != AttributeType.N && !value.type().isSet()) {
                    // Unverified wording.
                    throw DynamoException.invalidParameter("ADD action is not supported for the type " + value.type());
                }
                return new UpdateAction.Add(path, new Operand.Literal(value));
            default:
                throw new MemberConstraintException("1 validation error detected: Value '" + action
                        + "' at 'attributeUpdates." + name + ".member.action' failed to satisfy constraint:"
                        + " Member must satisfy enum value set: [ADD, PUT, DELETE]");
        }
    }

    private static Condition expectedOne(String name, LegacyCondition c) {
        if (c.comparisonOperator() != null) {
            if (c.exists() != null) {
                // Unverified wording.
                throw DynamoException.invalidParameter(
                        "Exists and ComparisonOperator cannot be used together for Attribute: " + name);
            }
            return compare(name, c.comparisonOperator(), arguments(name, c));
        }
        if (c.attributeValueList() != null) {
            throw DynamoException.invalidParameter(
                    "AttributeValueList can only be used with a ComparisonOperator for Attribute: " + name);
        }
        if (Boolean.FALSE.equals(c.exists())) {
            if (c.value() != null) {
                throw DynamoException.invalidParameter(
                        "Value cannot be used when Exists is false for Attribute: " + name);
            }
            return new Condition.AttributeNotExists(Operand.Path.of(name));
        }
        if (c.value() == null) {
            throw DynamoException.invalidParameter("Value must be provided when Exists is "
                    + (c.exists() == null ? "null" : "true") + " for Attribute: " + name);
        }
        return new Condition.Compare(Comparator.EQ, Operand.Path.of(name), new Operand.Literal(c.value()));
    }

    private static List<AttributeValue> arguments(String name, LegacyCondition c) {
        if (c.value() != null && c.attributeValueList() != null) {
            throw DynamoException.invalidParameter(
                    "Value and AttributeValueList cannot be used together for Attribute: " + name);
        }
        if (c.value() != null) {
            return List.of(c.value());
        }
        return c.attributeValueList() == null ? List.of() : c.attributeValueList();
    }

    private static Condition compare(String name, @Nullable String operator, List<AttributeValue> args) {
        LegacyOperator op = LegacyOperator.parse(operator);
        op.check(args);
        Operand path = Operand.Path.of(name);
        List<Operand> literals = new ArrayList<>();
        args.forEach(v -> literals.add(new Operand.Literal(v)));
        return op.toCondition(path, literals);
    }

    /** The parts joined by AND or OR; null (no condition) for none, e.g. an empty QueryFilter or Expected map. */
    private static @Nullable Condition combine(List<Condition> parts, @Nullable String conditionalOperator) {
        if (parts.isEmpty()) {
            return null;
        }
        boolean or = "OR".equals(conditionalOperator);
        Condition out = parts.get(0);
        for (int i = 1; i < parts.size(); i++) {
            out = or ? new Condition.Or(out, parts.get(i)) : new Condition.And(out, parts.get(i));
        }
        return out;
    }
}
