package dev.kumiko.expr;

import java.util.List;

/** A parsed ProjectionExpression: the document paths to return. */
public record ProjectionExpression(List<Operand.Path> paths) {
    public ProjectionExpression {
        paths = List.copyOf(paths);
    }
}
