package dev.kumiko.catalog;

/**
 * A table's stream: enabled flag, view type, and the label (creation time) that names the stream
 * ARN; a new label each time a stream is enabled again. Label null when never enabled.
 */
public record StreamSettings(boolean enabled, String viewType, String label) {
    public static final StreamSettings NONE = new StreamSettings(false, null, null);
}
