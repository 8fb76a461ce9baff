package dev.kumiko.faults.history;

import org.jspecify.annotations.Nullable;

/**
 * An invocation paired with its completion. {@code completeIndex} is {@link #OPEN} for an operation
 * whose outcome is unknown ({@link EventType#INFO}, or no completion at all): it may take effect at
 * any point after its invocation, even after the history ends.
 */
public record Operation(
        int process,
        String f,
        String key,
        @Nullable Object argument,
        EventType outcome,
        @Nullable Object result,
        long invokeIndex,
        long completeIndex) {
    public static final long OPEN = Long.MAX_VALUE;

    public Operation {
        if (outcome == EventType.INVOKE) {
            throw new IllegalArgumentException("an outcome is ok, fail or info");
        }
        if (completeIndex <= invokeIndex) {
            throw new IllegalArgumentException("completion " + completeIndex + " before invocation " + invokeIndex);
        }
        if ((outcome == EventType.INFO) != (completeIndex == OPEN)) {
            throw new IllegalArgumentException("only an unknown outcome is open");
        }
    }

    public boolean ok() {
        return outcome == EventType.OK;
    }
}
