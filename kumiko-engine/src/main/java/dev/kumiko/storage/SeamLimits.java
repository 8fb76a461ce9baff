package dev.kumiko.storage;

/**
 * The bounds every key and value crossing the store seam is held to, checked always (not by
 * {@code assert}, which a production JVM leaves off): one or two comparisons on bytes the write
 * touches anyway, so that a bug above the seam stops its request with an internal error before
 * it reaches a store, instead of leaving bytes that a later read trips over.
 *
 * <p>The bounds are loose on purpose: they hold everything the engine writes by design, so a
 * failed check always means a bug, never a large but legal request (those are refused earlier,
 * with DynamoDB's errors).
 */
public final class SeamLimits {
    /**
     * The longest key: an index entry holds the index's key attributes and the table's, each
     * escaped (up to twice its bytes; a partition key is at most 2,048 bytes and a sort key 1,024),
     * and a multi-attribute GSI key holds up to four of each, which stays under a quarter of this.
     */
    public static final int KEY_BYTES_MAX = 64 * 1024;
    /**
     * The longest value: a change record holds two item images of up to 400 KB by DynamoDB's
     * size rules, and the stored form adds a few bytes per attribute; a quarter of this holds it.
     */
    public static final int VALUE_BYTES_MAX = 16 * 1024 * 1024;

    private SeamLimits() {}

    /** The key, checked: present, not empty, at most {@link #KEY_BYTES_MAX} bytes. */
    public static byte[] key(byte[] key) {
        if (key == null || key.length == 0 || key.length > KEY_BYTES_MAX) {
            throw new IllegalStateException("store seam: a key of " + (key == null ? "null" : key.length + " bytes")
                    + " (1 to " + KEY_BYTES_MAX + " allowed)");
        }
        return key;
    }

    /** The value, checked: present, at most {@link #VALUE_BYTES_MAX} bytes. */
    public static byte[] value(byte[] value) {
        if (value == null || value.length > VALUE_BYTES_MAX) {
            throw new IllegalStateException(
                    "store seam: a value of " + (value == null ? "null" : value.length + " bytes") + " (at most "
                            + VALUE_BYTES_MAX + " allowed)");
        }
        return value;
    }
}
