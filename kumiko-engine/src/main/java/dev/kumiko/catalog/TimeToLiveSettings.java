package dev.kumiko.catalog;

import org.jspecify.annotations.Nullable;

/** A table's Time to Live: whether it is enabled and which attribute holds the expiry time. */
public record TimeToLiveSettings(boolean enabled, @Nullable String attributeName) {
    public static final TimeToLiveSettings DISABLED = new TimeToLiveSettings(false, null);

    public TimeToLiveSettings {
        assert !enabled || attributeName != null : "enabled TTL without an attribute";
    }

    /** The attribute that holds the items' expiry times, or null when Time to Live is disabled. */
    public @Nullable String enabledAttribute() {
        return enabled ? attributeName : null;
    }
}
