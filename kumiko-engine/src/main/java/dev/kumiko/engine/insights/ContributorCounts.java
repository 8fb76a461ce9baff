package dev.kumiko.engine.insights;

import dev.kumiko.catalog.ContributorInsightsSettings;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Counts the keys of the requests on tables and GSIs whose Contributor Insights are on, for this
 * engine's requests (each engine over a shared store counts its own). The throughput limiter calls
 * {@link #count} for every read or write it admits or refuses, but only when the table's descriptor
 * says some resource of it is on ({@link ContributorInsightsSettings#enabledAny}): a table without
 * Contributor Insights costs the request path that one field read.
 *
 * <p>Memory is bounded: {@value #KEYS_TRACKED} keys per rule, and at most {@value #RESOURCES_MAX}
 * tables and indexes counted at once. Counters of a resource turned off or dropped are let go when
 * the counts are next read ({@link #retain}).
 */
public final class ContributorCounts {
    /** Keys each rule keeps: ten times the ten a Contributor Insights graph shows by default. */
    public static final int KEYS_TRACKED = 100;
    /**
     * Tables and indexes counted at once; beyond it a newly enabled one is not counted until another
     * lets go. DynamoDB allows far fewer (CloudWatch's quota of Contributor Insights rules per account,
     * four per table or index, fails an UpdateContributorInsights past it). With keys of 100 bytes
     * the counters take about 15 MB at this bound; with keys at DynamoDB's maximum (2 KB partition,
     * 1 KB sort) about 130 MB.
     */
    public static final int RESOURCES_MAX = 128;

    /** A table ({@link ContributorInsightsSettings#TABLE}) or one of its GSIs, by the table's id. */
    record Resource(int tableId, String name) {}

    private final ConcurrentHashMap<Resource, Contributors> counted = new ConcurrentHashMap<>();

    /**
     * One request's key: admitted ({@code throttled} false) or refused by throttling. {@code index}
     * is the index read (null: the table; a local index counts for its table, which it shares
     * partitions with); {@code key} is the item's key or the item, when the request names one, and
     * gives the sort key. A request without a partition key (Scan) is not counted.
     */
    public void count(
            TableDescriptor d,
            @Nullable IndexDescriptor index,
            boolean throttled,
            @Nullable AttributeValue partitionKey,
            @Nullable Map<String, AttributeValue> key) {
        if (partitionKey == null) {
            return;
        }
        IndexDescriptor gsi = index != null && index.global() ? index : null;
        String name = gsi != null ? gsi.indexName() : ContributorInsightsSettings.TABLE;
        ContributorInsightsSettings.Resource setting =
                d.contributorInsights().of(name, gsi != null ? gsi.id() : d.id());
        if (setting == null || !setting.enabled()) {
            return;
        }
        String sortKeyName = gsi != null ? gsiSortKey(gsi) : index == null ? d.rangeKeyName() : null;
        Contributors c = contributors(new Resource(d.id(), name), setting, hasSortKey(d, gsi));
        if (c != null) {
            c.count(throttled, partitionKey, sortKeyName == null || key == null ? null : key.get(sortKeyName));
        }
    }

    /**
     * The {@code limit} largest keys of each rule of a table or index whose setting is {@code
     * setting} (enabled), largest first; empty lists when nothing was counted yet.
     */
    Map<Rule, List<KeyCount>> top(
            TableDescriptor d, @Nullable IndexDescriptor gsi, ContributorInsightsSettings.Resource setting, int limit) {
        String name = gsi == null ? ContributorInsightsSettings.TABLE : gsi.indexName();
        Contributors c = counted.get(new Resource(d.id(), name));
        if (c == null || !current(c, setting)) {
            c = new Contributors(setting.mode(), setting.rulesCreatedMillis(), hasSortKey(d, gsi), 1);
        }
        return c.top(limit);
    }

    /** Lets go of the counters of every resource not in {@code enabled}. */
    void retain(Set<Resource> enabled) {
        counted.keySet().retainAll(enabled);
    }

    private @Nullable Contributors contributors(
            Resource r, ContributorInsightsSettings.Resource setting, boolean hasSortKey) {
        Contributors c = counted.get(r);
        if (c != null && current(c, setting)) {
            return c;
        }
        if (c == null && counted.size() >= RESOURCES_MAX) {
            return null;
        }
        return counted.compute(
                r,
                (k, old) -> old != null && current(old, setting)
                        ? old
                        : new Contributors(setting.mode(), setting.rulesCreatedMillis(), hasSortKey, KEYS_TRACKED));
    }

    /** Counters made for the setting as it is now (enabling again, or in another mode, starts afresh). */
    private static boolean current(Contributors c, ContributorInsightsSettings.Resource setting) {
        return c.mode == setting.mode() && c.rulesCreatedMillis == setting.rulesCreatedMillis();
    }

    static boolean hasSortKey(TableDescriptor d, @Nullable IndexDescriptor gsi) {
        return gsi == null ? d.rangeKeyName() != null : !gsi.rangeKeyNames().isEmpty();
    }

    /** A GSI's sort key attribute; null for none or a multi-attribute one, whose pairs are not counted. */
    private static @Nullable String gsiSortKey(IndexDescriptor gsi) {
        return gsi.rangeKeyNames().size() == 1 ? gsi.rangeKeyName() : null;
    }
}
