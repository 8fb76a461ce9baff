package dev.kumiko.expr;

import java.util.List;

/** A boolean expression: the AST of ConditionExpression, FilterExpression and KeyConditionExpression. */
public sealed interface Condition {

    record Compare(Comparator comparator, Operand left, Operand right) implements Condition {}

    record Between(Operand value, Operand lower, Operand upper) implements Condition {}

    record In(Operand value, List<Operand> candidates) implements Condition {
        public In {
            candidates = List.copyOf(candidates);
        }
    }

    record And(Condition left, Condition right) implements Condition {}

    record Or(Condition left, Condition right) implements Condition {}

    record Not(Condition operand) implements Condition {}

    record AttributeExists(Operand path) implements Condition {}

    record AttributeNotExists(Operand path) implements Condition {}

    record AttributeTypeIs(Operand path, Operand type) implements Condition {}

    record BeginsWith(Operand value, Operand prefix) implements Condition {}

    record Contains(Operand container, Operand member) implements Condition {}
}
