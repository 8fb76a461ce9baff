package dev.kumiko.expr;

import java.util.List;

/** A parsed UpdateExpression: its actions in textual order (clauses may come in any order). */
public record UpdateExpression(List<UpdateAction> actions) {
    public UpdateExpression {
        actions = List.copyOf(actions);
    }
}
