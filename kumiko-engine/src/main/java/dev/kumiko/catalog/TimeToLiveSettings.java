package dev.kumiko.catalog;

/** A table's Time to Live: whether it is enabled and which attribute holds the expiry time. */
public record TimeToLiveSettings(boolean enabled, String attributeName) {
    public static final TimeToLiveSettings DISABLED = new TimeToLiveSettings(false, null);

    public TimeToLiveSettings {
        assert !enabled || attributeName != null : "enabled TTL without an attribute";
    }
}
