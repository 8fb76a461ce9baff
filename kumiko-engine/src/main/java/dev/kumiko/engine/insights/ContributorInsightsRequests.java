package dev.kumiko.engine.insights;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The Contributor Insights operations' requests and answers. A request's members are as sent (any
 * may be null, enums as their words), so that the engine checks them as DynamoDB's model does.
 */
public final class ContributorInsightsRequests {
    private ContributorInsightsRequests() {}

    public record Update(
            @Nullable String tableName,
            @Nullable String indexName,
            @Nullable String contributorInsightsAction,
            @Nullable String contributorInsightsMode) {}

    /** UpdateContributorInsights' answer: ENABLING or DISABLING, and the mode when enabling. */
    public record Updated(
            String tableName,
            @Nullable String indexName,
            String status,
            @Nullable String mode) {}

    public record Describe(
            @Nullable String tableName, @Nullable String indexName) {}

    /**
     * DescribeContributorInsights' answer. {@code ruleNames}, {@code mode} are null unless enabled,
     * {@code lastUpdateMillis} is null for a table or index whose setting was never changed.
     */
    public record Description(
            String tableName,
            @Nullable String indexName,
            String status,
            @Nullable String mode,
            @Nullable List<String> ruleNames,
            @Nullable Long lastUpdateMillis) {}

    public record ListRequest(
            @Nullable String tableName,
            @Nullable Long maxResults,
            @Nullable String nextToken) {}

    /** One ContributorInsightsSummary; the mode only when enabled. */
    public record Summary(
            String tableName,
            @Nullable String indexName,
            String status,
            @Nullable String mode) {}

    public record Listed(List<Summary> summaries, @Nullable String nextToken) {}

    /** Kumiko's own view (metrics, console): an enabled table or index and its rules' largest keys. */
    public record TopKeys(
            String tableName, @Nullable String indexName, String mode, Map<String, List<KeyCount>> rules) {}
}
