package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.PatchedItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Applies a validated update to an item. Every right-hand side is evaluated against the item as
 * it was before the update (DynamoDB's semantics), then the actions are applied in order.
 * Containers are copied along the written path only; the input item is not changed, and the
 * attributes the update leaves alone stay as the input holds them ({@link PatchedItem}).
 */
final class UpdateApplier {
    private final Map<String, String> names;
    private final ConditionEvaluator reader;

    UpdateApplier(Map<String, String> names, Map<String, AttributeValue> values) {
        this.names = names;
        this.reader = new ConditionEvaluator(names, values);
    }

    UpdateResult apply(UpdateExpression update, Map<String, AttributeValue> original) {
        // Before its first write the patched item is the original: the right-hand sides read the
        // original through it, so each attribute they read is looked up in the base only once.
        PatchedItem item = new PatchedItem(original);
        List<Operand.Path> paths = new ArrayList<>();
        List<AttributeValue> newValues = new ArrayList<>();
        for (UpdateAction a : update.actions()) {
            paths.add(a.path().resolve(names));
            newValues.add(newValue(a, item));
        }
        List<Integer> removals = new ArrayList<>();
        List<Integer> writes = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            (update.actions().get(i) instanceof UpdateAction.Remove ? removals : writes).add(i);
        }
        // Paths never overlap, so only appends past a list's end depend on order: DynamoDB applies
        // them by index, whatever order the expression names them in.
        writes.sort((x, y) -> DocumentWriter.comparePaths(paths.get(x), paths.get(y)));
        for (int i : writes) {
            DocumentWriter.write(item, paths.get(i).elements(), newValues.get(i));
        }
        // Removals address indexes of the original lists; later indexes go first so shifts don't interfere.
        removals.sort((x, y) -> DocumentWriter.compareForRemoval(paths.get(y), paths.get(x)));
        for (int i : removals) {
            DocumentWriter.write(item, paths.get(i).elements(), null);
        }
        return new UpdateResult(item, paths);
    }

    /** The value the action writes; null means "remove". */
    private @Nullable AttributeValue newValue(UpdateAction a, Map<String, AttributeValue> item) {
        if (a instanceof UpdateAction.Set s) {
            return evaluate(s.value(), item);
        }
        if (a instanceof UpdateAction.Remove) {
            return null;
        }
        AttributeValue current = reader.value(a.path(), item);
        if (a instanceof UpdateAction.Add add) {
            return SetArithmetic.add(current, operand(add.value(), item));
        }
        return SetArithmetic.delete(current, operand(((UpdateAction.Delete) a).value(), item));
    }

    /** ADD's and DELETE's operand: a value placeholder, which PlaceholderCheck found defined. */
    private AttributeValue operand(Operand o, Map<String, AttributeValue> item) {
        return Objects.requireNonNull(reader.value(o, item), "an undefined placeholder passed the check");
    }

    private AttributeValue evaluate(Operand o, Map<String, AttributeValue> item) {
        if (o instanceof Operand.IfNotExists i) {
            AttributeValue existing = reader.value(i.path(), item);
            return existing != null ? existing : evaluate(i.fallback(), item);
        }
        if (o instanceof Operand.ListAppend l) {
            AttributeValue first = evaluate(l.first(), item);
            AttributeValue second = evaluate(l.second(), item);
            if (first.type() != AttributeType.L || second.type() != AttributeType.L) {
                throw incorrectDataType();
            }
            List<AttributeValue> joined = new ArrayList<>(((AttributeValue.L) first).values());
            joined.addAll(((AttributeValue.L) second).values());
            return AttributeValue.l(joined);
        }
        if (o instanceof Operand.Arithmetic a) {
            AttributeValue left = evaluate(a.left(), item);
            AttributeValue right = evaluate(a.right(), item);
            if (left.type() != AttributeType.N || right.type() != AttributeType.N) {
                throw incorrectDataType();
            }
            AttributeValue.N l = (AttributeValue.N) left;
            AttributeValue.N r = (AttributeValue.N) right;
            return new AttributeValue.N(
                    a.plus() ? l.value().add(r.value()) : l.value().subtract(r.value()));
        }
        AttributeValue v = reader.value(o, item);
        if (v == null) {
            throw ExpressionKind.UPDATE.invalid(
                    "The provided expression refers to an attribute that does not exist in the item");
        }
        return v;
    }

    static DynamoException incorrectDataType() {
        return ExpressionKind.UPDATE.invalid("An operand in the update expression has an incorrect data type");
    }
}
