package dev.kumiko.expr;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * The item after an update and the resolved paths the update touched, in textual order, so that
 * UpdateItem can answer UPDATED_OLD / UPDATED_NEW by projecting these paths from the old or new
 * item ({@link #updatedNew()}, {@link #updatedOld(Map)}).
 */
public record UpdateResult(Map<String, AttributeValue> item, List<Operand.Path> updatedPaths) {
    public UpdateResult {
        updatedPaths = List.copyOf(updatedPaths);
    }

    public Map<String, AttributeValue> updatedNew() {
        return Projector.project(item, updatedPaths);
    }

    public Map<String, AttributeValue> updatedOld(Map<String, AttributeValue> oldItem) {
        return Projector.project(oldItem, updatedPaths);
    }
}
