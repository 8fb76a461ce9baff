package dev.kumiko.engine.insights;

import org.jspecify.annotations.Nullable;

/**
 * The names DynamoDB gives its Contributor Insights rules (Developer Guide, "CloudWatch Contributor
 * Insights for DynamoDB: How it works"): {@code DynamoDBContributorInsights-<code>-<resource>-<creation
 * timestamp>}. The resource of a GSI is written {@code <table>-<index>} and the timestamp in epoch
 * milliseconds; both are Kumiko's reading (UNVERIFIED). A rule name is at most 128 characters
 * (ContributorInsightsRuleList's pattern), so a long resource name is cut.
 */
final class RuleNames {
    static final String PREFIX = "DynamoDBContributorInsights-";
    static final int NAME_LENGTH_MAX = 128;

    private RuleNames() {}

    static String of(Rule rule, String tableName, @Nullable String indexName, long createdMillis) {
        String resource = indexName == null ? tableName : tableName + "-" + indexName;
        String head = PREFIX + rule.name() + "-";
        String tail = "-" + createdMillis;
        int room = NAME_LENGTH_MAX - head.length() - tail.length();
        String name = head + (resource.length() > room ? resource.substring(0, room) : resource) + tail;
        assert name.length() <= NAME_LENGTH_MAX : name;
        return name;
    }
}
