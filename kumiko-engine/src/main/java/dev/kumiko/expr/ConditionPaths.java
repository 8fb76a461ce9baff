package dev.kumiko.expr;

import java.util.Map;
import java.util.Set;

/** Collects the top-level attribute names a condition reads (placeholders resolved). */
final class ConditionPaths {
    private ConditionPaths() {}

    static Set<String> of(Condition c, Map<String, String> names, Set<String> out) {
        OperandWalk.conditionOperands(
                c,
                o -> OperandWalk.leaves(o, leaf -> {
                    if (leaf instanceof Operand.Path p) {
                        out.add(p.resolve(names).firstName());
                    }
                }));
        return out;
    }
}
