package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.insights.ContributorInsightsRequests;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Description;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Listed;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Summary;
import dev.kumiko.engine.insights.ContributorInsightsRequests.Updated;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Registrations of CloudWatch Contributor Insights' operations: UpdateContributorInsights,
 * DescribeContributorInsights and ListContributorInsights (docs/contributor-insights.md). The
 * enums are decoded as their words and checked by the engine, which names the member in
 * DynamoDB's "failed to satisfy constraint" message.
 */
final class ContributorInsightsRegistration {
    static final List<String> NAMES =
            List.of("UpdateContributorInsights", "DescribeContributorInsights", "ListContributorInsights");

    private ContributorInsightsRegistration() {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "UpdateContributorInsights" ->
                dynamodb(
                        name,
                        ContributorInsightsRegistration::update,
                        (e, r, c) -> e.contributorInsights().update(r),
                        (g, t, c) -> updated(g, t),
                        (r, f) -> ResourceChecks.tableIndex(name, r.tableName(), r.indexName(), f));
            case "DescribeContributorInsights" ->
                dynamodb(
                        name,
                        b -> new ContributorInsightsRequests.Describe(
                                Fields.string(b, "TableName"), Fields.string(b, "IndexName")),
                        (e, r, c) -> e.contributorInsights().describe(r),
                        (g, t, c) -> description(g, t),
                        (r, f) -> ResourceChecks.tableIndex(name, r.tableName(), r.indexName(), f));
            case "ListContributorInsights" ->
                dynamodb(
                        name,
                        b -> new ContributorInsightsRequests.ListRequest(
                                Fields.string(b, "TableName"),
                                Fields.longValue(b, "MaxResults"),
                                Fields.string(b, "NextToken")),
                        (e, r, c) -> e.contributorInsights().list(r),
                        (g, t, c) -> listed(g, t),
                        (r, f) -> ResourceChecks.account(name));
            default -> throw new IllegalArgumentException("not a Contributor Insights operation: " + name);
        };
    }

    private static ContributorInsightsRequests.Update update(Map<String, Object> b) {
        return new ContributorInsightsRequests.Update(
                Fields.string(b, "TableName"),
                Fields.string(b, "IndexName"),
                Fields.string(b, "ContributorInsightsAction"),
                Fields.string(b, "ContributorInsightsMode"));
    }

    private static void updated(JsonGenerator g, Updated u) throws IOException {
        resource(g, u.tableName(), u.indexName());
        g.writeStringField("ContributorInsightsStatus", u.status());
        optional(g, "ContributorInsightsMode", u.mode());
    }

    private static void description(JsonGenerator g, Description d) throws IOException {
        resource(g, d.tableName(), d.indexName());
        if (d.ruleNames() != null) {
            JsonOut.stringArray(g, "ContributorInsightsRuleList", d.ruleNames());
        }
        g.writeStringField("ContributorInsightsStatus", d.status());
        optional(g, "ContributorInsightsMode", d.mode());
        if (d.lastUpdateMillis() != null) {
            JsonOut.epochSeconds(g, "LastUpdateDateTime", d.lastUpdateMillis());
        }
    }

    private static void listed(JsonGenerator g, Listed l) throws IOException {
        g.writeArrayFieldStart("ContributorInsightsSummaries");
        for (Summary s : l.summaries()) {
            g.writeStartObject();
            resource(g, s.tableName(), s.indexName());
            g.writeStringField("ContributorInsightsStatus", s.status());
            optional(g, "ContributorInsightsMode", s.mode());
            g.writeEndObject();
        }
        g.writeEndArray();
        optional(g, "NextToken", l.nextToken());
    }

    private static void resource(JsonGenerator g, String tableName, @Nullable String indexName) throws IOException {
        g.writeStringField("TableName", tableName);
        optional(g, "IndexName", indexName);
    }

    private static void optional(JsonGenerator g, String field, @Nullable String value) throws IOException {
        if (value != null) {
            g.writeStringField(field, value);
        }
    }
}
