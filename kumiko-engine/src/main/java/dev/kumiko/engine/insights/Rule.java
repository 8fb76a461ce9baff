package dev.kumiko.engine.insights;

import dev.kumiko.catalog.ContributorInsightsSettings.Mode;

/**
 * The Contributor Insights rules DynamoDB creates for a table or GSI (Developer Guide, "CloudWatch
 * Contributor Insights for DynamoDB: How it works"), by the code in their names: most accessed and
 * most throttled keys, by partition key and, where the table or index has a sort key, by partition
 * and sort key. The throttled-keys mode has only the throttled rules.
 */
public enum Rule {
    /** Most accessed items (partition key). */
    PKC(true, false),
    /** Most accessed keys (partition and sort keys). */
    SKC(true, true),
    /** Most throttled keys (partition key). */
    PKT(false, false),
    /** Most throttled keys (partition and sort keys). */
    SKT(false, true);

    private final boolean accessed;
    private final boolean sortKey;

    Rule(boolean accessed, boolean sortKey) {
        this.accessed = accessed;
        this.sortKey = sortKey;
    }

    /** Counts accessed keys (else throttled ones). */
    public boolean accessed() {
        return accessed;
    }

    /** Keys by partition and sort key (else by partition key). */
    public boolean bySortKey() {
        return sortKey;
    }

    /** Whether a table or index in {@code mode}, with or without a sort key, has this rule. */
    public boolean applies(Mode mode, boolean hasSortKey) {
        return (!sortKey || hasSortKey) && (!accessed || mode == Mode.ACCESSED_AND_THROTTLED_KEYS);
    }
}
