package dev.kumiko.server.insights;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.json.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsStatus;

/**
 * The Contributor Insights operations' permissions (Service Authorization Reference): Update and
 * Describe on the table, or on the index when IndexName names one; List on the account ("*").
 */
class ContributorInsightsPolicyTest {
    private static final String REGION = "eu-west-1";
    private static final String ACCOUNT = "123456789012";
    private static final String PREFIX = "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":";
    private static final String WATCHER = "arn:aws:iam::" + ACCOUNT + ":user/watcher";
    /** Contributor Insights of table Lifecycle itself and of its ByGenre index; nothing else. */
    private static final String POLICY = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
            + "\"Action\":[\"dynamodb:UpdateContributorInsights\",\"dynamodb:DescribeContributorInsights\"],"
            + "\"Resource\":[\"" + PREFIX + "table/Lifecycle\",\"" + PREFIX + "table/Lifecycle/index/ByGenre\"]}]}";

    private static String implicitDeny(String action, String resource) {
        return "User: " + WATCHER + " is not authorized to perform: dynamodb:" + action + " on resource: " + resource
                + " because no identity-based policy allows the dynamodb:" + action + " action";
    }

    @Test
    void updateAndDescribeAreAuthorizedOnTheTableOrIndexAndListOnTheAccount() {
        Map<String, AccessKey> keys = new HashMap<>();
        keys.put("AKIAADMIN", AccessKey.admin("AKIAADMIN", "admin-secret"));
        byte[] p = POLICY.getBytes(StandardCharsets.UTF_8);
        keys.put(
                "AKIAWATCH",
                new AccessKey(
                        "AKIAWATCH",
                        "watch-secret",
                        null,
                        ACCOUNT,
                        WATCHER,
                        Map.of(),
                        JsonTree.parseObject(p, 0, p.length)));
        try (TestServer server = TestServer.start(
                        TestServer.StoreKind.MEMORY,
                        EngineSettings.DEFAULTS,
                        Clock.SYSTEM,
                        TestServer.Security.sigV4(keys));
                DynamoDbClient admin =
                        server.newClient(REGION, AwsBasicCredentials.create("AKIAADMIN", "admin-secret"));
                DynamoDbClient watcher =
                        server.newClient(REGION, AwsBasicCredentials.create("AKIAWATCH", "watch-secret"))) {
            ContributorInsightsTest.createMusic(admin, "Lifecycle");
            ContributorInsightsTest.createMusic(admin, "Other");
            ContributorInsightsTest.enable(watcher, "Lifecycle", null);
            ContributorInsightsTest.enable(watcher, "Lifecycle", "ByGenre");
            assertThat(watcher.describeContributorInsights(
                                    b -> b.tableName("Lifecycle").indexName("ByGenre"))
                            .contributorInsightsStatus())
                    .isEqualTo(ContributorInsightsStatus.ENABLED);
            assertError(
                    () -> watcher.updateContributorInsights(
                            b -> b.tableName("Other").contributorInsightsAction(ContributorInsightsAction.ENABLE)),
                    "AccessDeniedException",
                    implicitDeny("UpdateContributorInsights", PREFIX + "table/Other"));
            assertError(
                    () -> watcher.describeContributorInsights(
                            b -> b.tableName("Other").indexName("ByGenre")),
                    "AccessDeniedException",
                    implicitDeny("DescribeContributorInsights", PREFIX + "table/Other/index/ByGenre"));
            assertError(
                    () -> watcher.listContributorInsights(b -> b.tableName("Lifecycle")),
                    "AccessDeniedException",
                    implicitDeny("ListContributorInsights", "*"));
            assertThat(admin.listContributorInsights(b -> b.maxResults(10)).contributorInsightsSummaries())
                    .hasSize(2);
        }
    }
}
