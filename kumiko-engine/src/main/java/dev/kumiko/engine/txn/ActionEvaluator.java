package dev.kumiko.engine.txn;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.index.IndexKeyCheck;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.UpdateResult;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Runs one action against its item as it is now (the caller holds the item's lock): the condition,
 * then the change the action makes. A check that fails here — the condition, an update's result
 * too large or with a bad index key, an operand of the wrong type — becomes the action's
 * cancellation reason instead of an error, as DynamoDB reports it.
 */
final class ActionEvaluator {
    private ActionEvaluator() {}

    static ActionOutcome evaluate(TransactAction a, @Nullable Map<String, AttributeValue> current) {
        if (a.problem() != null) {
            return ActionOutcome.cancelled(CancellationReason.validationError(a.problem()));
        }
        try {
            if (!a.expressions().testCondition(current == null ? Map.of() : current)) {
                return ActionOutcome.cancelled(
                        CancellationReason.conditionalCheckFailed(a.returnOldOnFailure() ? current : null));
            }
            return switch (a.kind()) {
                case CONDITION_CHECK -> new ActionOutcome(CancellationReason.OK, null, sizeOf(current));
                case PUT -> change(a, current, a.item(), a.itemBytes());
                case DELETE -> change(a, current, null, 0);
                case UPDATE -> update(a, current);
            };
        } catch (DynamoException e) {
            return ActionOutcome.cancelled(CancellationReason.validationError(e.getMessage()));
        }
    }

    /** As UpdateItem: a missing item is created from its key unless the update leaves only the key. */
    private static ActionOutcome update(TransactAction a, @Nullable Map<String, AttributeValue> current) {
        if (current == null && a.expressions().updateOnlyRemoves()) {
            return new ActionOutcome(CancellationReason.OK, null, ItemSize.of(a.key()));
        }
        UpdateResult result = a.expressions().applyUpdate(current == null ? a.key() : current);
        Map<String, AttributeValue> updated = result.item();
        long bytes = ItemSize.of(updated);
        if (bytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
            return ActionOutcome.cancelled(
                    CancellationReason.validationError("Item size to update has exceeded the maximum allowed size"));
        }
        TableDescriptor d = a.table().descriptor();
        IndexKeyCheck.updatedItem(d, updated);
        boolean createsNothing = current == null && updated.size() == a.key().size();
        if (createsNothing) {
            return new ActionOutcome(CancellationReason.OK, null, bytes);
        }
        return change(a, current, updated, bytes);
    }

    private static ActionOutcome change(
            TransactAction a,
            @Nullable Map<String, AttributeValue> current,
            @Nullable Map<String, AttributeValue> next,
            long nextBytes) {
        // Only an action without a problem gets here, and every such action has its storage key.
        byte[] storageKey = Objects.requireNonNull(a.storageKey(), "an action without a problem");
        ItemWriter.Change c = new ItemWriter.Change(a.table(), storageKey, current, next, nextBytes);
        return new ActionOutcome(CancellationReason.OK, c, 0);
    }

    private static long sizeOf(@Nullable Map<String, AttributeValue> item) {
        return item == null ? 0 : ItemSize.of(item);
    }
}
