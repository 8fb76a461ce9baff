package dev.kumiko.engine.insights;

import dev.kumiko.catalog.ContributorInsightsSettings.Mode;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The counted keys of one table or GSI whose Contributor Insights are on: one {@link TopKeys} per
 * rule that applies to it. Made when the setting was enabled ({@code rulesCreatedMillis}), so that
 * enabling again, or in another mode, starts from nothing, as new CloudWatch rules would. One lock
 * for the four counters: an event costs a lookup and a few swaps under it.
 */
final class Contributors {
    /** A key of the partition-and-sort-key rules. */
    record KeyPair(AttributeValue partitionKey, AttributeValue sortKey) {}

    final Mode mode;
    final long rulesCreatedMillis;
    final boolean hasSortKey;
    private final TopKeys<AttributeValue> pkAccessed;
    private final TopKeys<AttributeValue> pkThrottled;
    private final @Nullable TopKeys<KeyPair> skAccessed;
    private final @Nullable TopKeys<KeyPair> skThrottled;

    Contributors(Mode mode, long rulesCreatedMillis, boolean hasSortKey, int keysTracked) {
        this.mode = mode;
        this.rulesCreatedMillis = rulesCreatedMillis;
        this.hasSortKey = hasSortKey;
        this.pkAccessed = new TopKeys<>(keysTracked);
        this.pkThrottled = new TopKeys<>(keysTracked);
        this.skAccessed = hasSortKey ? new TopKeys<>(keysTracked) : null;
        this.skThrottled = hasSortKey ? new TopKeys<>(keysTracked) : null;
    }

    /** One request's key: admitted ({@code throttled} false) or refused by throttling. */
    synchronized void count(boolean throttled, AttributeValue partitionKey, @Nullable AttributeValue sortKey) {
        if (!throttled && mode == Mode.THROTTLED_KEYS) {
            return;
        }
        (throttled ? pkThrottled : pkAccessed).add(partitionKey);
        TopKeys<KeyPair> bySortKey = throttled ? skThrottled : skAccessed;
        if (bySortKey != null && sortKey != null) {
            bySortKey.add(new KeyPair(partitionKey, sortKey));
        }
    }

    /** Each applying rule's {@code limit} largest keys, largest first. */
    synchronized Map<Rule, List<KeyCount>> top(int limit) {
        Map<Rule, List<KeyCount>> out = new EnumMap<>(Rule.class);
        for (Rule r : Rule.values()) {
            if (r.applies(mode, hasSortKey)) {
                out.put(r, r.bySortKey() ? pairs(r, limit) : singles(r, limit));
            }
        }
        return out;
    }

    private List<KeyCount> singles(Rule r, int limit) {
        List<KeyCount> out = new ArrayList<>();
        for (TopKeys.Counted<AttributeValue> c : (r.accessed() ? pkAccessed : pkThrottled).top(limit)) {
            out.add(new KeyCount(c.key(), null, c.count()));
        }
        return out;
    }

    private List<KeyCount> pairs(Rule r, int limit) {
        TopKeys<KeyPair> keys = r.accessed() ? skAccessed : skThrottled;
        List<KeyCount> out = new ArrayList<>();
        if (keys != null) {
            for (TopKeys.Counted<KeyPair> c : keys.top(limit)) {
                out.add(new KeyCount(c.key().partitionKey(), c.key().sortKey(), c.count()));
            }
        }
        return out;
    }
}
