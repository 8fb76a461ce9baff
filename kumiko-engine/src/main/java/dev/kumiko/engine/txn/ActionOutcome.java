package dev.kumiko.engine.txn;

import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.item.ItemWriter;
import org.jspecify.annotations.Nullable;

/**
 * What one action does when its transaction runs: either a cancellation reason, or None with the
 * item change to commit. Without a change (a ConditionCheck, an Update that creates nothing),
 * billedBytes is the item size the action is billed for; with one, billing takes the larger of
 * the old and new sizes once the write has measured the old item.
 */
record ActionOutcome(CancellationReason reason, ItemWriter.@Nullable Change change, long billedBytes) {
    static ActionOutcome cancelled(CancellationReason reason) {
        assert !reason.isNone();
        return new ActionOutcome(reason, null, 0);
    }

    boolean isCancelled() {
        return !reason.isNone();
    }
}
