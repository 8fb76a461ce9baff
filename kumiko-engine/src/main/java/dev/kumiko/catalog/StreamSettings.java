package dev.kumiko.catalog;

import dev.kumiko.model.StreamViewType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A table's stream: enabled flag, view type, and the label (creation time) that names the stream
 * ARN; a new label each time a stream is enabled again. Label null when never enabled.
 *
 * <p>{@code epochs} are the table's streams still readable, oldest first: the enabled one (last)
 * and the ones disabled less than 24 hours ago. Each covers its own range of the table's change
 * log sequence numbers, so records need not say which stream they belong to.
 */
public record StreamSettings(
        boolean enabled,
        @Nullable StreamViewType viewType,
        @Nullable String label,
        List<StreamEpoch> epochs) {
    public static final StreamSettings NONE = new StreamSettings(false, null, null, List.of());

    public StreamSettings {
        epochs = List.copyOf(epochs);
        assert !enabled || (!epochs.isEmpty() && epochs.get(epochs.size() - 1).isEnabled()) : "no open epoch";
    }

    /** The stream of that label, or null if there is none (any more). */
    public @Nullable StreamEpoch epoch(String streamLabel) {
        for (StreamEpoch e : epochs) {
            if (e.label().equals(streamLabel)) {
                return e;
            }
        }
        return null;
    }

    /** The enabled stream, or null. */
    public @Nullable StreamEpoch current() {
        if (epochs.isEmpty()) {
            return null;
        }
        StreamEpoch last = epochs.get(epochs.size() - 1);
        return last.isEnabled() ? last : null;
    }
}
