package dev.kumiko.server.insights;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.TestServer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsMode;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsStatus;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsSummary;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.UpdateContributorInsightsResponse;

/**
 * UpdateContributorInsights, DescribeContributorInsights and ListContributorInsights through the
 * SDK: the lifecycle on a table and a GSI, the two modes and their rules, ListContributorInsights'
 * pages, DynamoDB's refusals, and the setting going with its table. Each test uses its own tables.
 */
class ContributorInsightsTest {
    private static final long NOW_MILLIS = 1_700_000_000_123L;
    private static final ManualClock clock = new ManualClock(NOW_MILLIS);
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, clock);
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A table keyed by Artist and SongTitle, with GSI ByGenre (Genre) and LSI ByYear (Artist, Year). */
    static void createMusic(DynamoDbClient c, String name) {
        c.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("Artist").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SongTitle").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("Genre").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("Year").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("Artist").keyType(KeyType.HASH),
                        k -> k.attributeName("SongTitle").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("ByGenre")
                        .keySchema(k -> k.attributeName("Genre").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .localSecondaryIndexes(l -> l.indexName("ByYear")
                        .keySchema(
                                k -> k.attributeName("Artist").keyType(KeyType.HASH),
                                k -> k.attributeName("Year").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
    }

    private static void createHashOnly(String name) {
        c.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
    }

    static UpdateContributorInsightsResponse enable(DynamoDbClient c, String table, String index) {
        return c.updateContributorInsights(
                b -> b.tableName(table).indexName(index).contributorInsightsAction(ContributorInsightsAction.ENABLE));
    }

    private static DescribeContributorInsightsResponse describe(String table, String index) {
        return c.describeContributorInsights(b -> b.tableName(table).indexName(index));
    }

    @Test
    void aTableGoesFromDisabledToEnabledAndBackWithItsRules() {
        createMusic(c, "Lifecycle");
        DescribeContributorInsightsResponse before = describe("Lifecycle", null);
        assertThat(before.tableName()).isEqualTo("Lifecycle");
        assertThat(before.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.DISABLED);
        assertThat(before.hasContributorInsightsRuleList()).isFalse();
        assertThat(before.lastUpdateDateTime()).isNull();
        assertThat(before.contributorInsightsMode()).isNull();

        UpdateContributorInsightsResponse enabling = enable(c, "Lifecycle", null);
        assertThat(enabling.tableName()).isEqualTo("Lifecycle");
        assertThat(enabling.indexName()).isNull();
        assertThat(enabling.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLING);
        assertThat(enabling.contributorInsightsMode()).isEqualTo(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS);

        DescribeContributorInsightsResponse on = describe("Lifecycle", null);
        assertThat(on.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
        assertThat(on.contributorInsightsMode()).isEqualTo(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS);
        long created = clock.nowMillis();
        assertThat(on.contributorInsightsRuleList())
                .containsExactly(
                        "DynamoDBContributorInsights-PKC-Lifecycle-" + created,
                        "DynamoDBContributorInsights-SKC-Lifecycle-" + created,
                        "DynamoDBContributorInsights-PKT-Lifecycle-" + created,
                        "DynamoDBContributorInsights-SKT-Lifecycle-" + created);
        assertThat(on.lastUpdateDateTime()).isEqualTo(Instant.ofEpochMilli(created));
        assertThat(describe("Lifecycle", "ByGenre").contributorInsightsStatus())
                .as("the table's setting is not its index's")
                .isEqualTo(ContributorInsightsStatus.DISABLED);

        clock.advanceMillis(5_000);
        UpdateContributorInsightsResponse disabling = c.updateContributorInsights(
                b -> b.tableName("Lifecycle").contributorInsightsAction(ContributorInsightsAction.DISABLE));
        assertThat(disabling.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.DISABLING);
        DescribeContributorInsightsResponse off = describe("Lifecycle", null);
        assertThat(off.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.DISABLED);
        assertThat(off.hasContributorInsightsRuleList()).isFalse();
        assertThat(off.lastUpdateDateTime()).isEqualTo(Instant.ofEpochMilli(created + 5_000));
    }

    @Test
    void aGsiHasItsOwnSettingAndAHashOnlyResourceHasNoSortKeyRules() {
        createMusic(c, "Indexed");
        UpdateContributorInsightsResponse r = enable(c, "Indexed", "ByGenre");
        assertThat(r.indexName()).isEqualTo("ByGenre");
        assertThat(r.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLING);
        DescribeContributorInsightsResponse d = describe("Indexed", "ByGenre");
        assertThat(d.indexName()).isEqualTo("ByGenre");
        assertThat(d.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
        assertThat(d.contributorInsightsRuleList())
                .containsExactly(
                        "DynamoDBContributorInsights-PKC-Indexed-ByGenre-" + clock.nowMillis(),
                        "DynamoDBContributorInsights-PKT-Indexed-ByGenre-" + clock.nowMillis());
        assertThat(describe("Indexed", null).contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.DISABLED);
        assertThat(c.listContributorInsights(b -> b.tableName("Indexed")).contributorInsightsSummaries())
                .containsExactly(
                        ContributorInsightsSummary.builder()
                                .tableName("Indexed")
                                .contributorInsightsStatus(ContributorInsightsStatus.DISABLED)
                                .build(),
                        ContributorInsightsSummary.builder()
                                .tableName("Indexed")
                                .indexName("ByGenre")
                                .contributorInsightsStatus(ContributorInsightsStatus.ENABLED)
                                .contributorInsightsMode(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS)
                                .build());
    }

    @Test
    void throttledKeysModeHasOnlyTheThrottledRulesAndEnablingInAnotherModeMakesNewRules() {
        createMusic(c, "Throttled");
        UpdateContributorInsightsResponse r = c.updateContributorInsights(b -> b.tableName("Throttled")
                .contributorInsightsAction(ContributorInsightsAction.ENABLE)
                .contributorInsightsMode(ContributorInsightsMode.THROTTLED_KEYS));
        assertThat(r.contributorInsightsMode()).isEqualTo(ContributorInsightsMode.THROTTLED_KEYS);
        long first = clock.nowMillis();
        DescribeContributorInsightsResponse d = describe("Throttled", null);
        assertThat(d.contributorInsightsMode()).isEqualTo(ContributorInsightsMode.THROTTLED_KEYS);
        assertThat(d.contributorInsightsRuleList())
                .containsExactly(
                        "DynamoDBContributorInsights-PKT-Throttled-" + first,
                        "DynamoDBContributorInsights-SKT-Throttled-" + first);

        clock.advanceMillis(1_000);
        enable(c, "Throttled", null);
        DescribeContributorInsightsResponse again = describe("Throttled", null);
        assertThat(again.contributorInsightsMode()).isEqualTo(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS);
        assertThat(again.contributorInsightsRuleList())
                .hasSize(4)
                .allSatisfy(name -> assertThat(name).endsWith("-" + (first + 1_000)));

        clock.advanceMillis(1_000);
        enable(c, "Throttled", null);
        assertThat(describe("Throttled", null).contributorInsightsRuleList())
                .as("enabling again in the same mode keeps the rules")
                .isEqualTo(again.contributorInsightsRuleList());
        assertThat(describe("Throttled", null).lastUpdateDateTime()).isEqualTo(Instant.ofEpochMilli(first + 2_000));
    }

    @Test
    void listWithoutATableNamesEveryEnabledResourceInPages() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String name = "paged-" + i;
            createHashOnly(name);
            if (i != 2) {
                enable(c, name, null);
                expected.add(name);
            }
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String next = token;
            ListContributorInsightsResponse page =
                    c.listContributorInsights(b -> b.maxResults(2).nextToken(next));
            assertThat(page.contributorInsightsSummaries()).hasSizeLessThanOrEqualTo(2);
            page.contributorInsightsSummaries().forEach(s -> {
                assertThat(s.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
                seen.add(s.tableName() + (s.indexName() == null ? "" : "/" + s.indexName()));
            });
            token = page.nextToken();
            pages++;
        } while (token != null && pages < 100);
        assertThat(seen).containsAll(expected).doesNotContain("paged-2").doesNotHaveDuplicates();
        assertThat(seen).isSorted();
        assertThat(pages).isGreaterThanOrEqualTo(2);
    }

    @Test
    void theSettingGoesWithItsTable() {
        createMusic(c, "Dropped");
        enable(c, "Dropped", null);
        enable(c, "Dropped", "ByGenre");
        c.deleteTable(b -> b.tableName("Dropped"));
        createMusic(c, "Dropped");
        assertThat(describe("Dropped", null).contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.DISABLED);
        assertThat(describe("Dropped", "ByGenre").contributorInsightsStatus())
                .isEqualTo(ContributorInsightsStatus.DISABLED);
        assertThat(c.listContributorInsights(b -> b.maxResults(100)).contributorInsightsSummaries())
                .noneMatch(s -> s.tableName().equals("Dropped"));
    }

    @Test
    void theSettingIsKeptAcrossARestart() {
        try (TestServer disk = TestServer.start(TestServer.StoreKind.ROCKSDB, EngineSettings.DEFAULTS, clock)) {
            createMusic(disk.client(), "Kept");
            enable(disk.client(), "Kept", "ByGenre");
            disk.client()
                    .updateContributorInsights(b -> b.tableName("Kept")
                            .contributorInsightsAction(ContributorInsightsAction.ENABLE)
                            .contributorInsightsMode(ContributorInsightsMode.THROTTLED_KEYS));
            List<String> rules = disk.client()
                    .describeContributorInsights(b -> b.tableName("Kept"))
                    .contributorInsightsRuleList();
            disk.restart();
            DescribeContributorInsightsResponse table =
                    disk.client().describeContributorInsights(b -> b.tableName("Kept"));
            assertThat(table.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
            assertThat(table.contributorInsightsMode()).isEqualTo(ContributorInsightsMode.THROTTLED_KEYS);
            assertThat(table.contributorInsightsRuleList()).isEqualTo(rules);
            assertThat(disk.client()
                            .describeContributorInsights(
                                    b -> b.tableName("Kept").indexName("ByGenre"))
                            .contributorInsightsStatus())
                    .isEqualTo(ContributorInsightsStatus.ENABLED);
        }
    }

    @Test
    void aTableArnNamesTheTable() {
        createHashOnly("ByArn");
        String arn = c.describeTable(b -> b.tableName("ByArn")).table().tableArn();
        assertThat(c.updateContributorInsights(
                                b -> b.tableName(arn).contributorInsightsAction(ContributorInsightsAction.ENABLE))
                        .tableName())
                .isEqualTo("ByArn");
        assertThat(describe(arn, null).contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
    }

    @Test
    void unknownTablesAndIndexesAreNotFound() {
        createMusic(c, "Known");
        assertError(
                () -> enable(c, "Unknown", null),
                "ResourceNotFoundException",
                "Requested resource not found: Table: Unknown not found");
        assertError(
                () -> describe("Unknown", null),
                "ResourceNotFoundException",
                "Requested resource not found: Table: Unknown not found");
        assertError(
                () -> c.listContributorInsights(b -> b.tableName("Unknown")),
                "ResourceNotFoundException",
                "Requested resource not found: Table: Unknown not found");
        assertError(
                () -> enable(c, "Known", "NoSuchIndex"),
                "ResourceNotFoundException",
                "Requested resource not found: Index: NoSuchIndex not found");
        assertError(
                () -> describe("Known", "ByYear"),
                "ResourceNotFoundException",
                "Requested resource not found: Index: ByYear not found");
    }

    @Test
    void membersAreCheckedAsTheApiModelSays() {
        createMusic(c, "Checked");
        assertValidation(
                () -> c.updateContributorInsights(b -> b.tableName("Checked").contributorInsightsAction("PAUSE")),
                "1 validation error detected: Value 'PAUSE' at 'contributorInsightsAction' failed to satisfy "
                        + "constraint: Member must satisfy enum value set: [ENABLE, DISABLE]");
        assertValidation(
                () -> c.updateContributorInsights(b -> b.tableName("Checked")),
                "1 validation error detected: Value null at 'contributorInsightsAction' failed to satisfy "
                        + "constraint: Member must not be null");
        assertValidation(
                () -> c.updateContributorInsights(b -> b.tableName("Checked")
                        .contributorInsightsAction(ContributorInsightsAction.ENABLE)
                        .contributorInsightsMode("ALL_KEYS")),
                "1 validation error detected: Value 'ALL_KEYS' at 'contributorInsightsMode' failed to satisfy "
                        + "constraint: Member must satisfy enum value set: [ACCESSED_AND_THROTTLED_KEYS, "
                        + "THROTTLED_KEYS]");
        assertValidation(
                () -> c.updateContributorInsights(
                        b -> b.tableName("Checked").indexName("x").contributorInsightsAction("PAUSE")),
                "2 validation errors detected: Value 'x' at 'indexName' failed to satisfy constraint: Member must "
                        + "have length greater than or equal to 3; Value 'PAUSE' at 'contributorInsightsAction' "
                        + "failed to satisfy constraint: Member must satisfy enum value set: [ENABLE, DISABLE]");
        assertValidation(
                () -> c.describeContributorInsights(b -> b.tableName("Checked").indexName("bad name")),
                "1 validation error detected: Value 'bad name' at 'indexName' failed to satisfy constraint: "
                        + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
        assertValidation(
                () -> c.describeContributorInsights(b -> b.tableName("")),
                "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must "
                        + "have length greater than or equal to 1");
        assertValidation(
                () -> c.listContributorInsights(b -> b.maxResults(101)),
                "1 validation error detected: Value '101' at 'maxResults' failed to satisfy constraint: Member "
                        + "must have value less than or equal to 100");
        assertValidation(() -> c.listContributorInsights(b -> b.nextToken("not a token")), "Invalid NextToken");
        assertThat(describe("Checked", null).contributorInsightsStatus())
                .as("nothing refused changed the setting")
                .isEqualTo(ContributorInsightsStatus.DISABLED);
    }
}
