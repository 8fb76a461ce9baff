package dev.kumiko.tools.model;

import static dev.kumiko.tools.model.ModelCheckRun.example;
import static dev.kumiko.tools.model.ModelCheckRun.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shipped example models, each checked in-process through {@code kumiko model check}. */
class ExampleModelsTest {
    /** The seed's six access patterns and the RCU each costs at --scale 10 (eventually consistent reads). */
    private static final Map<String, Double> CHAT_PATTERNS = Map.of(
            "connectionOwner",
            0.5,
            "userConnections",
            0.5,
            "roomMetadata",
            0.5,
            "roomMessages",
            1.0,
            "userRooms",
            0.5,
            "lastMessage",
            0.5);

    @Test
    void chatReportsEachOfTheSixPatternsThenTheMonthlyCost() {
        ModelCheckRun run = ModelCheckRun.of(example("chat.json"));

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        for (Map.Entry<String, Double> e : CHAT_PATTERNS.entrySet()) {
            String rcu = Report.number(e.getValue()).replace(".", "\\.");
            assertThat(run.out()).containsPattern("(?m)^" + e.getKey() + " .* 1 +yes +\\d+ +\\d+ +" + rcu + " ");
        }
        assertThat(run.out())
                .contains("monthly cost")
                .containsPattern("on-demand +\\$[\\d,.]+ ")
                .containsPattern("provisioned \\(\\d+ RCU, \\d+ WCU\\)")
                .contains("Budgets: every pattern is within");
    }

    @Test
    @SuppressWarnings("unchecked")
    void chatMeasuresKeysGsiAndTransactionsAsDesigned() {
        ModelCheckRun run = ModelCheckRun.of(example("chat.json"), "--format", "json", "--scale", "10");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        for (Map.Entry<String, Double> e : CHAT_PATTERNS.entrySet()) {
            Map<String, Object> p = run.pattern("chat", e.getKey());
            assertThat(p.get("singleRequest")).as(e.getKey()).isEqualTo(true);
            assertThat((List<Object>) p.get("flags")).as(e.getKey()).isEmpty();
            assertThat(number(p.get("rcu"))).as(e.getKey()).isEqualTo(e.getValue());
        }
        // The documented default prices are the ones the command uses.
        Map<String, Object> prices = (Map<String, Object>) run.json().get("prices");
        assertThat(number(prices.get("readRequestUnitPerMillion")))
                .isEqualTo(Prices.DEFAULTS.readRequestUnitPerMillion());
        assertThat(number(prices.get("writeRequestUnitPerMillion")))
                .isEqualTo(Prices.DEFAULTS.writeRequestUnitPerMillion());
        assertThat(number(prices.get("rcuHour"))).isEqualTo(Prices.DEFAULTS.rcuHour());
        assertThat(number(prices.get("wcuHour"))).isEqualTo(Prices.DEFAULTS.wcuHour());
        assertThat(number(prices.get("storageGbMonth"))).isEqualTo(Prices.DEFAULTS.storageGbMonth());
        assertThat(number(prices.get("provisionedUtilization"))).isEqualTo(Prices.DEFAULTS.provisionedUtilization());
        // Ten messages per room at --scale 10: just over 4 KB together, so two half units.
        assertThat(number(run.pattern("chat", "roomMessages").get("itemsRead"))).isEqualTo(10);
        assertThat(number(run.pattern("chat", "connectionOwner").get("itemsRead")))
                .isEqualTo(1);
        assertThat(number(run.pattern("chat", "userConnections").get("itemsRead")))
                .isEqualTo(2);
        Map<String, Object> list = run.pattern("chat", "roomListScreen");
        assertThat(number(list.get("requests"))).isEqualTo(2);
        assertThat((List<Object>) list.get("flags")).containsExactly(PatternResult.FLAG_ROUND_TRIPS);
        // Two transactional puts of items under 1 KB: 2 WCU each.
        assertThat(number(run.pattern("chat", "connect").get("wcu"))).isEqualTo(4);
    }

    @Test
    @SuppressWarnings("unchecked")
    void sqlToNoSqlReproducesTheSeedsCapacityTables() {
        ModelCheckRun run = ModelCheckRun.of(example("sql-to-nosql.json"), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        // Scenario 1 (user 20 KB + 30 posts of 5 KB): reads 1,000/h, e-mail updates 10/h.
        assertPerHour(run, "single-item", "readUserTopPosts", 21.5, 21_500, "rcu");
        assertPerHour(run, "vertical-partitioning", "readUserTopPosts", 9, 9_000, "rcu");
        assertPerHour(run, "single-item", "updateUserEmail", 170, 1_700, "wcu");
        assertPerHour(run, "vertical-partitioning", "updateUserEmail", 20, 200, "wcu");
        // Scenario 2 (post 5 KB + counter 1 KB): reads 1,000/h, counter updates 10/h and 1,000/h.
        assertPerHour(run, "single-item", "readPostWithCounter", 1, 1_000, "rcu");
        assertPerHour(run, "vertical-partitioning", "readPostWithCounter", 1.5, 1_500, "rcu");
        assertPerHour(run, "single-item", "updatePostCounterRarely", 6, 60, "wcu");
        assertPerHour(run, "vertical-partitioning", "updatePostCounterRarely", 1, 10, "wcu");
        assertPerHour(run, "single-item", "updatePostCounterOften", 6, 6_000, "wcu");
        assertPerHour(run, "vertical-partitioning", "updatePostCounterOften", 1, 1_000, "wcu");
        // Money, single items: (21.5 + 1) RCU x 1,000/h = 6.25 RCU/s; a 730-hour month of it on demand at
        // $0.125 per million, and ceil(6.25 / 0.7) = 9 provisioned RCU at $0.00013 an hour.
        Map<String, Object> cost =
                (Map<String, Object>) run.design("single-item").get("cost");
        assertThat(number(cost.get("rcuPerSecond"))).isCloseTo(6.25, within(1e-9));
        assertThat(number(cost.get("provisionedRcu"))).isEqualTo(9);
        // Storage: 3 users of 170 KB and 3 posts of 6 KB, each item billed 100 bytes more.
        Map<String, Object> storage =
                (Map<String, Object>) run.design("single-item").get("storage");
        assertThat(number(storage.get("sampleBytes"))).isEqualTo(3 * (174_080 + 100) + 3 * (6_144 + 100));
        double onDemandReads = 6.25 * 730 * 3600 / 1e6 * 0.125;
        assertThat(number(cost.get("onDemandMonthly")) - number(cost.get("storageMonthly")))
                .isCloseTo(onDemandReads + number(cost.get("onDemandWriteMonthly")), within(1e-9));
        assertThat(number(cost.get("provisionedMonthly")) - number(cost.get("storageMonthly")))
                .isCloseTo(9 * 730 * 0.00013 + number(cost.get("provisionedWcu")) * 730 * 0.00065, within(1e-9));
        // The seed's API calls: one per read for single items, two for vertical partitioning.
        assertThat(number(run.pattern("single-item", "readUserTopPosts").get("requests")))
                .isEqualTo(1);
        assertThat(number(
                        run.pattern("vertical-partitioning", "readUserTopPosts").get("requests")))
                .isEqualTo(2);
        assertThat(number(run.pattern("vertical-partitioning", "readPostWithCounter")
                        .get("requests")))
                .isEqualTo(2);
    }

    @Test
    void sqlToNoSqlTextReportComparesTheDesigns() {
        ModelCheckRun run = ModelCheckRun.of(example("sql-to-nosql.json"));

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.out())
                .contains("Comparison by access pattern")
                .containsPattern("(?m)^readUserTopPosts +1 +21,500 +0 +2 +9,000 +0$")
                .containsPattern("(?m)^updateUserEmail +1 +0 +1,700 +1 +0 +200$")
                .containsPattern("(?m)^updatePostCounterOften +1 +0 +6,000 +1 +0 +1,000$");
    }

    @Test
    void mbcCqrsRunsTenantPartitionsUlidKeysAndVersionHistory() {
        ModelCheckRun run = ModelCheckRun.of(example("mbc-cqrs.json"), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        // ULID sort keys: the tenant's 10 products, newest first, within one page of 20.
        assertThat(number(run.pattern("data-table", "latestProducts").get("itemsRead")))
                .isEqualTo(10);
        // Items of one of the 3 orders that share a tenant's 10 items: ordinals 0, 3, 6, 9.
        assertThat(number(run.pattern("data-table", "orderItems").get("itemsRead")))
                .isEqualTo(4);
        // The optimistic lock's condition held (else the check would have failed with exit 2).
        assertThat(number(run.pattern("data-table", "updateOrderStatus").get("wcu")))
                .isEqualTo(1);
        assertThat(number(run.pattern("data-table", "activityInRange").get("itemsRead")))
                .isEqualTo(5);
        assertThat(number(run.pattern("command-table", "orderHistory").get("itemsRead")))
                .isEqualTo(4);
        assertThat(number(run.pattern("command-table", "orderVersion").get("itemsReturned")))
                .isEqualTo(1);
        assertThat(number(run.pattern("command-table", "publishCommand").get("wcu")))
                .isEqualTo(1);
    }

    @Test
    void theSameModelGivesTheSameReport() {
        ModelCheckRun first = ModelCheckRun.of(example("chat.json"), "--format", "markdown");
        ModelCheckRun second = ModelCheckRun.of(example("chat.json"), "--format", "markdown");

        assertThat(first.exitCode()).as(first.err()).isEqualTo(0);
        assertThat(first.out())
                .contains("Endpoint: " + ModelCheckCommand.IN_PROCESS_LABEL)
                .isEqualTo(second.out());
    }

    @Test
    void markdownReportIsATableForReview() {
        ModelCheckRun run = ModelCheckRun.of(example("mbc-cqrs.json"), "--format", "markdown");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.out())
                .startsWith("# Model check: mbc-cqrs")
                .contains("## Design: data-table (table mbc-data)")
                .containsPattern("(?m)^\\| getProduct +\\| GetItem +\\| +100 \\| +1 \\| yes ");
    }

    private static void assertPerHour(
            ModelCheckRun run, String design, String pattern, double perRequest, double perHour, String unit) {
        Map<String, Object> p = run.pattern(design, pattern);
        assertThat(number(p.get(unit))).as(design + "/" + pattern).isEqualTo(perRequest);
        assertThat(number(p.get(unit + "PerHour"))).as(design + "/" + pattern).isCloseTo(perHour, within(1e-6));
    }
}
