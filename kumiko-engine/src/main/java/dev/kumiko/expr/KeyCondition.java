package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Query's key condition: equality on every partition-key attribute, then optionally equality on
 * leading sort-key attributes and one condition on the next (a GSI may have up to four of each,
 * DynamoDB's multi-attribute keys; a table or LSI has one of each). Built from a
 * KeyConditionExpression AST or from legacy KeyConditions.
 */
public record KeyCondition(
        List<String> partitionKeyNames,
        List<AttributeValue> partitionKeyValues,
        List<AttributeValue> sortKeyEqualities,
        @Nullable SortKeyCondition sortKey) {

    /** One condition on a sort key attribute; {@code upper} is set only for BETWEEN. */
    public record SortKeyCondition(
            String name,
            Operator operator,
            AttributeValue value,
            @Nullable AttributeValue upper) {
        public enum Operator {
            EQ,
            LT,
            LE,
            GT,
            GE,
            BETWEEN,
            BEGINS_WITH
        }

        public boolean matches(@Nullable AttributeValue v) {
            switch (operator) {
                case EQ:
                    return ConditionEvaluator.compare(Comparator.EQ, v, value);
                case LT:
                    return ConditionEvaluator.compare(Comparator.LT, v, value);
                case LE:
                    return ConditionEvaluator.compare(Comparator.LE, v, value);
                case GT:
                    return ConditionEvaluator.compare(Comparator.GT, v, value);
                case GE:
                    return ConditionEvaluator.compare(Comparator.GE, v, value);
                case BETWEEN:
                    return ConditionEvaluator.compare(Comparator.GE, v, value)
                            && ConditionEvaluator.compare(Comparator.LE, v, upper);
                case BEGINS_WITH:
                    return ConditionEvaluator.beginsWith(v, value);
                default:
                    throw new AssertionError(operator);
            }
        }
    }

    /** The partition key's value when it is a single attribute (tables, LSIs, most GSIs). */
    public AttributeValue partitionKeyValue() {
        assert partitionKeyValues.size() == 1 : "multi-attribute partition key";
        return partitionKeyValues.get(0);
    }

    /** One simple condition on one key attribute, before it is matched against the schema. */
    private record Part(
            String name,
            SortKeyCondition.Operator operator,
            AttributeValue value,
            @Nullable AttributeValue upper) {}

    /** A single-attribute schema: {@code sortKeyName} is null for a hash-only table. */
    public static KeyCondition extract(
            Condition c,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            String partitionKeyName,
            String sortKeyName) {
        return extract(
                c, names, values, List.of(partitionKeyName), sortKeyName == null ? List.of() : List.of(sortKeyName));
    }

    /** Splits {@code c} for a key schema; placeholders must already be validated. */
    public static KeyCondition extract(
            Condition c,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            List<String> partitionKeyNames,
            List<String> sortKeyNames) {
        List<Condition> conjuncts = new ArrayList<>();
        flatten(c, conjuncts);
        int max = partitionKeyNames.size() + Math.max(1, sortKeyNames.size());
        if (conjuncts.size() > max) {
            // DynamoDB's text for a one-attribute schema; the multi-attribute form is UNVERIFIED.
            throw DynamoException.validation(
                    max == 2
                            ? "Conditions can be of length 1 or 2 only"
                            : "Conditions can be of length 1 to " + max + " only");
        }
        ConditionEvaluator bound = new ConditionEvaluator(names, values);
        Map<String, Part> parts = new LinkedHashMap<>();
        for (Condition conjunct : conjuncts) {
            Part part = part(conjunct, names, bound);
            if (parts.put(part.name(), part) != null) {
                throw DynamoException.validation("KeyConditionExpressions must only contain one condition per key");
            }
        }
        return match(parts, partitionKeyNames, sortKeyNames);
    }

    private static KeyCondition match(
            Map<String, Part> parts, List<String> partitionKeyNames, List<String> sortKeyNames) {
        List<AttributeValue> partition = new ArrayList<>(partitionKeyNames.size());
        for (String name : partitionKeyNames) {
            Part p = parts.remove(name);
            if (p == null) {
                throw DynamoException.validation("Query condition missed key schema element: " + name);
            }
            if (p.operator() != SortKeyCondition.Operator.EQ) {
                throw DynamoException.validation("Query key condition not supported");
            }
            partition.add(p.value());
        }
        if (parts.isEmpty()) {
            return new KeyCondition(partitionKeyNames, partition, List.of(), null);
        }
        if (sortKeyNames.isEmpty()) {
            throw DynamoException.validation("Query key condition not supported");
        }
        List<Part> sort = new ArrayList<>(sortKeyNames.size());
        for (String name : sortKeyNames) {
            Part p = parts.remove(name);
            if (p == null) {
                break;
            }
            sort.add(p);
        }
        if (!parts.isEmpty()) {
            // A condition on a non-key attribute, or one that skips a sort-key attribute.
            throw DynamoException.validation(
                    "Query condition missed key schema element: " + sortKeyNames.get(sort.size()));
        }
        List<AttributeValue> equalities = new ArrayList<>(sort.size());
        for (int i = 0; i < sort.size() - 1; i++) {
            if (sort.get(i).operator() != SortKeyCondition.Operator.EQ) {
                // UNVERIFIED: multi-attribute sort keys allow a range only on the last attribute given.
                throw DynamoException.validation("Query key condition not supported");
            }
            equalities.add(sort.get(i).value());
        }
        Part last = sort.get(sort.size() - 1);
        return new KeyCondition(
                partitionKeyNames,
                partition,
                equalities,
                new SortKeyCondition(last.name(), last.operator(), last.value(), last.upper()));
    }

    private static void flatten(Condition c, List<Condition> out) {
        if (c instanceof Condition.And and) {
            flatten(and.left(), out);
            flatten(and.right(), out);
        } else {
            out.add(c);
        }
    }

    private static Part part(Condition c, Map<String, String> names, ConditionEvaluator bound) {
        if (c instanceof Condition.Compare cmp) {
            return comparePart(cmp, names, bound);
        }
        if (c instanceof Condition.Between b) {
            String name = keyName(b.value(), names);
            return new Part(
                    name, SortKeyCondition.Operator.BETWEEN, constant(b.lower(), bound), constant(b.upper(), bound));
        }
        if (c instanceof Condition.BeginsWith b) {
            String name = keyName(b.value(), names);
            return new Part(name, SortKeyCondition.Operator.BEGINS_WITH, constant(b.prefix(), bound), null);
        }
        throw invalidOperator(c);
    }

    private static Part comparePart(Condition.Compare cmp, Map<String, String> names, ConditionEvaluator bound) {
        boolean leftIsPath = cmp.left() instanceof Operand.Path;
        boolean rightIsPath = cmp.right() instanceof Operand.Path;
        if (leftIsPath && rightIsPath) {
            throw DynamoException.validation(
                    "Invalid condition in KeyConditionExpression: multiple attribute names used in one condition");
        }
        if (!leftIsPath && !rightIsPath) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation(
                    "Invalid condition in KeyConditionExpression: no attribute name used in one condition");
        }
        Comparator op = leftIsPath ? cmp.comparator() : cmp.comparator().flipped();
        Operand path = leftIsPath ? cmp.left() : cmp.right();
        Operand value = leftIsPath ? cmp.right() : cmp.left();
        if (op == Comparator.NE) {
            throw DynamoException.validation("Invalid operator used in KeyConditionExpression: <>");
        }
        return new Part(
                keyName(path, names), SortKeyCondition.Operator.valueOf(op.name()), constant(value, bound), null);
    }

    private static String keyName(Operand o, Map<String, String> names) {
        if (!(o instanceof Operand.Path p)) {
            throw DynamoException.validation(
                    "Invalid condition in KeyConditionExpression: no attribute name used in one condition");
        }
        if (p.elements().size() != 1) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation("KeyConditionExpressions cannot have conditions on nested attributes");
        }
        return Objects.requireNonNull(
                PathReader.name((PathElement.Name) p.elements().get(0), names),
                "placeholders are checked before the key condition is read");
    }

    private static AttributeValue constant(Operand o, ConditionEvaluator bound) {
        if (o instanceof Operand.ValueRef || o instanceof Operand.Literal) {
            return Objects.requireNonNull(
                    bound.value(o, Map.of()), "placeholders are checked before the key condition is read");
        }
        throw DynamoException.validation(
                "Invalid condition in KeyConditionExpression: multiple attribute names used in one condition");
    }

    private static DynamoException invalidOperator(Condition c) {
        return DynamoException.validation("Invalid operator used in KeyConditionExpression: " + operatorName(c));
    }

    private static String operatorName(Condition c) {
        if (c instanceof Condition.Or) {
            return "OR";
        }
        if (c instanceof Condition.Not) {
            return "NOT";
        }
        if (c instanceof Condition.In) {
            return "IN";
        }
        if (c instanceof Condition.AttributeExists) {
            return "attribute_exists";
        }
        if (c instanceof Condition.AttributeNotExists) {
            return "attribute_not_exists";
        }
        if (c instanceof Condition.AttributeTypeIs) {
            return "attribute_type";
        }
        return "contains";
    }
}
