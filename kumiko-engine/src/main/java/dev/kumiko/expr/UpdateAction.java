package dev.kumiko.expr;

/** One action of an update expression, in the clause it was written in. */
public sealed interface UpdateAction {

    Operand.Path path();

    record Set(Operand.Path path, Operand value) implements UpdateAction {}

    record Remove(Operand.Path path) implements UpdateAction {}

    record Add(Operand.Path path, Operand value) implements UpdateAction {}

    record Delete(Operand.Path path, Operand value) implements UpdateAction {}
}
