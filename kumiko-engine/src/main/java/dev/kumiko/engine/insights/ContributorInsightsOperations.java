package dev.kumiko.engine.insights;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.ContributorInsightsSettings;
import dev.kumiko.catalog.ContributorInsightsSettings.Mode;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Describe;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Description;
import dev.kumiko.engine.insights.ContributorInsightsRequests.ListRequest;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Listed;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Summary;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Update;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Updated;
import dev.kumiko.error.DynamoException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * UpdateContributorInsights, DescribeContributorInsights and ListContributorInsights, and the
 * counted keys for Kumiko's metrics and console. The setting is part of the table's descriptor, so it
 * persists with the table, reaches every engine over the store, and goes when the table is deleted.
 *
 * <p>A change takes effect at once: UpdateContributorInsights answers ENABLING or DISABLING, as
 * DynamoDB does, and DescribeContributorInsights already answers ENABLED or DISABLED (a client that
 * waits for ENABLED finds it at its first look). There are no CloudWatch rules: the rule names
 * DescribeContributorInsights lists are the names DynamoDB would give them, and the keys they would
 * report are counted by the engine ({@link ContributorCounts}).
 */
public final class ContributorInsightsOperations {
    static final List<String> ACTIONS = List.of("ENABLE", "DISABLE");
    static final List<String> MODES = List.of(Mode.ACCESSED_AND_THROTTLED_KEYS.name(), Mode.THROTTLED_KEYS.name());
    /** ListContributorInsights' largest page (API Reference: MaxResults, maximum value of 100) and its default. */
    public static final int LIST_RESULTS_MAX = 100;

    private final Catalog catalog;
    private final ContributorCounts counts;
    private final Clock clock;

    public ContributorInsightsOperations(Catalog catalog, ContributorCounts counts, Clock clock) {
        this.catalog = catalog;
        this.counts = counts;
        this.clock = clock;
    }

    public Updated update(Update r) {
        Constraints c = new Constraints();
        tableAndIndex(c, r.tableName(), r.indexName());
        if (c.notNull("contributorInsightsAction", r.contributorInsightsAction())) {
            c.enumValue("contributorInsightsAction", r.contributorInsightsAction(), ACTIONS);
        }
        c.enumValue("contributorInsightsMode", r.contributorInsightsMode(), MODES);
        c.throwIfAny();
        boolean enable = "ENABLE".equals(r.contributorInsightsAction());
        // DynamoDB's default mode (the API Reference names no other; the 2025 mode is opt-in).
        Mode mode = r.contributorInsightsMode() == null
                ? Mode.ACCESSED_AND_THROTTLED_KEYS
                : Mode.valueOf(r.contributorInsightsMode());
        String name = TableNames.resolve(r.tableName(), "tableName");
        synchronized (catalog) {
            TableDescriptor changed = catalog.modify(
                    table(name), d -> d.withContributorInsights(changed(d, r.indexName(), enable, mode)));
            if (changed == null) {
                throw tableNotFound(name);
            }
        }
        return new Updated(name, r.indexName(), enable ? "ENABLING" : "DISABLING", enable ? mode.name() : null);
    }

    private ContributorInsightsSettings changed(
            TableDescriptor d, @Nullable String indexName, boolean enable, Mode mode) {
        IndexDescriptor gsi = indexName == null ? null : gsi(d, indexName);
        String key = gsi == null ? ContributorInsightsSettings.TABLE : gsi.indexName();
        int ownerId = gsi == null ? d.id() : gsi.id();
        ContributorInsightsSettings.Resource old = d.contributorInsights().of(key, ownerId);
        return d.contributorInsights().with(key, next(old, ownerId, enable, mode, clock.nowMillis()));
    }

    /**
     * A resource's setting after ENABLE or DISABLE at nowMillis. Enabling anew, or in another mode,
     * makes new rules (new names, counts from nothing); enabling again in the same mode keeps them.
     * Disabling keeps the mode and rules' time it had, which no answer shows.
     */
    static ContributorInsightsSettings.Resource next(
            ContributorInsightsSettings.@Nullable Resource old,
            int ownerId,
            boolean enable,
            Mode mode,
            long nowMillis) {
        if (old == null) {
            return new ContributorInsightsSettings.Resource(ownerId, enable, mode, nowMillis, enable ? nowMillis : 0);
        }
        if (!enable) {
            return new ContributorInsightsSettings.Resource(
                    ownerId, false, old.mode(), nowMillis, old.rulesCreatedMillis());
        }
        boolean sameRules = old.enabled() && old.mode() == mode;
        return new ContributorInsightsSettings.Resource(
                ownerId, true, mode, nowMillis, sameRules ? old.rulesCreatedMillis() : nowMillis);
    }

    public Description describe(Describe r) {
        Constraints c = new Constraints();
        tableAndIndex(c, r.tableName(), r.indexName());
        c.throwIfAny();
        String name = TableNames.resolve(r.tableName(), "tableName");
        TableDescriptor d = table(name).descriptor();
        IndexDescriptor gsi = r.indexName() == null ? null : gsi(d, r.indexName());
        ContributorInsightsSettings.Resource s = setting(d, gsi);
        if (s == null) {
            return new Description(name, r.indexName(), "DISABLED", null, null, null);
        }
        if (!s.enabled()) {
            return new Description(name, r.indexName(), "DISABLED", null, null, s.lastUpdateMillis());
        }
        return new Description(
                name, r.indexName(), "ENABLED", s.mode().name(), ruleNames(d, gsi, s), s.lastUpdateMillis());
    }

    /**
     * With a TableName, the table and each of its GSIs, whatever their status; without one, every
     * table and GSI whose Contributor Insights are on. In (table, index) order, the table before
     * its indexes; the NextToken names the last one answered.
     */
    public Listed list(ListRequest r) {
        Constraints c = new Constraints();
        c.length("tableName", r.tableName(), 1, 1024);
        c.range("maxResults", r.maxResults(), Long.MIN_VALUE, LIST_RESULTS_MAX);
        c.throwIfAny();
        ListPosition after = r.nextToken() == null ? null : ListPosition.decode(r.nextToken());
        // No minimum is documented: a MaxResults below 1 answers a page of the default size.
        int limit = r.maxResults() == null || r.maxResults() < 1
                ? LIST_RESULTS_MAX
                : r.maxResults().intValue();
        List<Summary> all = r.tableName() == null
                ? enabledEverywhere()
                : everyResource(
                        table(TableNames.resolve(r.tableName(), "tableName")).descriptor());
        List<Summary> page = new ArrayList<>(Math.min(limit, all.size()));
        String next = null;
        for (Summary s : all) {
            if (after != null && !after.before(s)) {
                continue;
            }
            if (page.size() == limit) {
                next = ListPosition.of(page.get(page.size() - 1)).encode();
                break;
            }
            page.add(s);
        }
        return new Listed(List.copyOf(page), next);
    }

    /** Every enabled table and GSI with its rules' {@code limit} largest keys (of {@code tableName} only, if given). */
    public List<ContributorInsightsRequests.TopKeys> topKeys(@Nullable String tableName, int limit) {
        List<ContributorInsightsRequests.TopKeys> out = new ArrayList<>();
        Set<ContributorCounts.Resource> enabled = new HashSet<>();
        for (Table t : catalog.tables()) {
            TableDescriptor d = t.descriptor();
            if (!d.contributorInsights().enabledAny()) {
                continue;
            }
            for (IndexDescriptor gsi : resources(d)) {
                ContributorInsightsSettings.Resource s = setting(d, gsi);
                if (s == null || !s.enabled()) {
                    continue;
                }
                enabled.add(new ContributorCounts.Resource(
                        d.id(), gsi == null ? ContributorInsightsSettings.TABLE : gsi.indexName()));
                if (tableName == null || tableName.equals(d.tableName())) {
                    out.add(topKeys(d, gsi, s, limit));
                }
            }
        }
        if (tableName == null) {
            counts.retain(enabled);
        }
        return out;
    }

    private ContributorInsightsRequests.TopKeys topKeys(
            TableDescriptor d, @Nullable IndexDescriptor gsi, ContributorInsightsSettings.Resource s, int limit) {
        Map<String, List<KeyCount>> rules = new LinkedHashMap<>();
        Map<Rule, List<KeyCount>> top = new EnumMap<>(counts.top(d, gsi, s, limit));
        top.forEach((rule, keys) -> rules.put(rule.name(), keys));
        return new ContributorInsightsRequests.TopKeys(
                d.tableName(), gsi == null ? null : gsi.indexName(), s.mode().name(), rules);
    }

    private List<Summary> enabledEverywhere() {
        List<Summary> out = new ArrayList<>();
        for (Table t : catalog.tables()) {
            TableDescriptor d = t.descriptor();
            if (d.contributorInsights().enabledAny()) {
                for (Summary s : everyResource(d)) {
                    if (s.status().equals("ENABLED")) {
                        out.add(s);
                    }
                }
            }
        }
        return out;
    }

    /** The table's summary, then its GSIs' in name order. */
    private static List<Summary> everyResource(TableDescriptor d) {
        List<Summary> out = new ArrayList<>();
        for (IndexDescriptor gsi : resources(d)) {
            ContributorInsightsSettings.Resource s = setting(d, gsi);
            String mode = s != null && s.enabled() ? s.mode().name() : null;
            out.add(new Summary(
                    d.tableName(), gsi == null ? null : gsi.indexName(), mode != null ? "ENABLED" : "DISABLED", mode));
        }
        return out;
    }

    /** The table (null) and its GSIs in name order: the resources Contributor Insights can be on for. */
    private static List<@Nullable IndexDescriptor> resources(TableDescriptor d) {
        List<@Nullable IndexDescriptor> out = new ArrayList<>();
        out.add(null);
        List<IndexDescriptor> gsis = new ArrayList<>(d.globalSecondaryIndexes());
        gsis.sort((a, b) -> a.indexName().compareTo(b.indexName()));
        out.addAll(gsis);
        return out;
    }

    private static ContributorInsightsSettings.@Nullable Resource setting(
            TableDescriptor d, @Nullable IndexDescriptor gsi) {
        return gsi == null
                ? d.contributorInsights().of(ContributorInsightsSettings.TABLE, d.id())
                : d.contributorInsights().of(gsi.indexName(), gsi.id());
    }

    private static List<String> ruleNames(
            TableDescriptor d, @Nullable IndexDescriptor gsi, ContributorInsightsSettings.Resource s) {
        boolean sortKey = ContributorCounts.hasSortKey(d, gsi);
        List<String> out = new ArrayList<>(4);
        for (Rule rule : Rule.values()) {
            if (rule.applies(s.mode(), sortKey)) {
                out.add(RuleNames.of(
                        rule, d.tableName(), gsi == null ? null : gsi.indexName(), s.rulesCreatedMillis()));
            }
        }
        return List.copyOf(out);
    }

    /** TableName (a name or an ARN) and IndexName as the API model constrains them. */
    private static void tableAndIndex(Constraints c, @Nullable String tableName, @Nullable String indexName) {
        if (c.notNull("tableName", tableName)) {
            c.length("tableName", tableName, 1, 1024);
        }
        c.length("indexName", indexName, Constraints.TABLE_NAME_MIN, Constraints.TABLE_NAME_MAX);
        c.pattern("indexName", indexName, Constraints.TABLE_NAME_PATTERN);
    }

    private Table table(String name) {
        Table t = catalog.get(name);
        if (t == null) {
            throw tableNotFound(name);
        }
        return t;
    }

    /** Contributor Insights are for a table and its global secondary indexes: an LSI's name is not found either. */
    private static IndexDescriptor gsi(TableDescriptor d, String indexName) {
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            if (x.indexName().equals(indexName)) {
                return x;
            }
        }
        // UNVERIFIED wording, shaped like the table's (docs/notes/error-messages.md).
        throw DynamoException.resourceNotFound("Requested resource not found: Index: " + indexName + " not found");
    }

    // UNVERIFIED for these operations: DescribeTable's wording for a missing table.
    private static DynamoException tableNotFound(String name) {
        return DynamoException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
    }

    /** Where a ListContributorInsights page ended: the last (table, index) answered. */
    record ListPosition(String tableName, String indexName) {
        static ListPosition of(Summary s) {
            return new ListPosition(s.tableName(), s.indexName() == null ? "" : s.indexName());
        }

        /** Whether s comes after this position (the table, "", before its indexes). */
        boolean before(Summary s) {
            int byTable = tableName.compareTo(s.tableName());
            if (byTable != 0) {
                return byTable < 0;
            }
            return indexName.compareTo(s.indexName() == null ? "" : s.indexName()) < 0;
        }

        String encode() {
            byte[] raw = (tableName + "\n" + indexName).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        }

        static ListPosition decode(String token) {
            String raw;
            try {
                raw = new String(
                        java.util.Base64.getUrlDecoder().decode(token), java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw invalidToken();
            }
            int cut = raw.indexOf('\n');
            if (cut < 1 || raw.indexOf('\n', cut + 1) >= 0) {
                throw invalidToken();
            }
            return new ListPosition(raw.substring(0, cut), raw.substring(cut + 1));
        }

        // Kumiko's wording for other lists' tokens (ListExports, ExecuteStatement); UNVERIFIED here.
        private static DynamoException invalidToken() {
            return DynamoException.validation("Invalid NextToken");
        }
    }
}
