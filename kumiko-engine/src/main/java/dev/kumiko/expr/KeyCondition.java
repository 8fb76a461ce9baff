package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Query's key condition split into the partition-key equality and at most one sort-key
 * condition. Built from a KeyConditionExpression AST or from legacy KeyConditions.
 */
public record KeyCondition(String partitionKeyName, AttributeValue partitionKeyValue, SortKeyCondition sortKey) {

    /** One condition on the sort key; {@code upper} is set only for BETWEEN. */
    public record SortKeyCondition(String name, Operator operator, AttributeValue value, AttributeValue upper) {
        public enum Operator { EQ, LT, LE, GT, GE, BETWEEN, BEGINS_WITH }

        public boolean matches(AttributeValue v) {
            switch (operator) {
                case EQ: return ConditionEvaluator.compare(Comparator.EQ, v, value);
                case LT: return ConditionEvaluator.compare(Comparator.LT, v, value);
                case LE: return ConditionEvaluator.compare(Comparator.LE, v, value);
                case GT: return ConditionEvaluator.compare(Comparator.GT, v, value);
                case GE: return ConditionEvaluator.compare(Comparator.GE, v, value);
                case BETWEEN:
                    return ConditionEvaluator.compare(Comparator.GE, v, value) && ConditionEvaluator.compare(Comparator.LE, v, upper);
                case BEGINS_WITH: return ConditionEvaluator.beginsWith(v, value);
                default: throw new AssertionError(operator);
            }
        }
    }

    /** One simple condition on one key attribute, before it is matched against the schema. */
    private record Part(String name, SortKeyCondition.Operator operator, AttributeValue value, AttributeValue upper) {}

    /** DynamoDB allows a partition-key equality plus at most one sort-key condition. */
    private static final int CONDITIONS_MAX = 2;

    /**
     * Splits {@code c} for a table or index whose key is {@code partitionKeyName} and, if it has
     * one, {@code sortKeyName} (else null). Placeholders must already be validated.
     */
    public static KeyCondition extract(Condition c, Map<String, String> names, Map<String, AttributeValue> values,
                                       String partitionKeyName, String sortKeyName) {
        List<Condition> conjuncts = new ArrayList<>();
        flatten(c, conjuncts);
        if (conjuncts.size() > CONDITIONS_MAX) {
            throw DynamoException.validation("Conditions can be of length 1 or 2 only");
        }
        ConditionEvaluator bound = new ConditionEvaluator(names, values);
        Part partition = null;
        Part sort = null;
        for (Condition conjunct : conjuncts) {
            Part part = part(conjunct, names, bound);
            if ((partition != null && partition.name().equals(part.name()))
                    || (sort != null && sort.name().equals(part.name()))) {
                throw DynamoException.validation("KeyConditionExpressions must only contain one condition per key");
            }
            if (part.name().equals(partitionKeyName)) {
                partition = part;
            } else {
                sort = part;
            }
        }
        return match(partition, sort, partitionKeyName, sortKeyName);
    }

    private static KeyCondition match(Part partition, Part sort, String partitionKeyName, String sortKeyName) {
        if (partition == null) {
            throw DynamoException.validation("Query condition missed key schema element: " + partitionKeyName);
        }
        if (partition.operator() != SortKeyCondition.Operator.EQ) {
            throw DynamoException.validation("Query key condition not supported");
        }
        if (sort == null) {
            return new KeyCondition(partitionKeyName, partition.value(), null);
        }
        if (sortKeyName == null) {
            throw DynamoException.validation("Query key condition not supported");
        }
        if (!sort.name().equals(sortKeyName)) {
            throw DynamoException.validation("Query condition missed key schema element: " + sortKeyName);
        }
        return new KeyCondition(partitionKeyName, partition.value(),
                new SortKeyCondition(sort.name(), sort.operator(), sort.value(), sort.upper()));
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
            return new Part(name, SortKeyCondition.Operator.BETWEEN, constant(b.lower(), bound), constant(b.upper(), bound));
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
            throw DynamoException.validation("Invalid condition in KeyConditionExpression: multiple attribute names used in one condition");
        }
        if (!leftIsPath && !rightIsPath) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation("Invalid condition in KeyConditionExpression: no attribute name used in one condition");
        }
        Comparator op = leftIsPath ? cmp.comparator() : cmp.comparator().flipped();
        Operand path = leftIsPath ? cmp.left() : cmp.right();
        Operand value = leftIsPath ? cmp.right() : cmp.left();
        if (op == Comparator.NE) {
            throw DynamoException.validation("Invalid operator used in KeyConditionExpression: <>");
        }
        return new Part(keyName(path, names), SortKeyCondition.Operator.valueOf(op.name()), constant(value, bound), null);
    }

    private static String keyName(Operand o, Map<String, String> names) {
        if (!(o instanceof Operand.Path p)) {
            throw DynamoException.validation("Invalid condition in KeyConditionExpression: no attribute name used in one condition");
        }
        if (p.elements().size() != 1) {
            // Wording not verified against DynamoDB.
            throw DynamoException.validation("KeyConditionExpressions cannot have conditions on nested attributes");
        }
        return PathReader.name((PathElement.Name) p.elements().get(0), names);
    }

    private static AttributeValue constant(Operand o, ConditionEvaluator bound) {
        if (o instanceof Operand.ValueRef || o instanceof Operand.Literal) {
            return bound.value(o, Map.of());
        }
        throw DynamoException.validation("Invalid condition in KeyConditionExpression: multiple attribute names used in one condition");
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
