package dev.kumiko.server.console;

import static dev.kumiko.server.console.ChatSeed.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.storage.memory.MemoryStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The keys Contributor Insights counts, as /metrics and the console's JSON show them: accessed keys
 * by partition key and by partition and sort key, a GSI's keys apart from its table's, throttled
 * keys under throughput enforcement, nothing for a table without it, and the throttled-keys mode
 * counting no accessed keys.
 */
class ContributorInsightsKeysTest {
    private static final String NAME = "kumiko_contributor_insights_requests";
    private final HttpClient http = HttpClient.newHttpClient();

    private String get(ConsoleServer server, String path) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(server.endpoint() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** The value of the one sample with exactly these labels, or 0 when there is none. */
    private static long sample(String scrape, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(NAME + "{" + labels + "}") + " (\\d+)$")
                .matcher(scrape);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static void createOrders(DynamoDbClient c, String name, BillingMode billing) {
        c.createTable(b -> {
            b.tableName(name)
                    .billingMode(billing)
                    .attributeDefinitions(
                            a -> a.attributeName("customer").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("order").attributeType(ScalarAttributeType.N),
                            a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
                    .keySchema(
                            k -> k.attributeName("customer").keyType(KeyType.HASH),
                            k -> k.attributeName("order").keyType(KeyType.RANGE))
                    .globalSecondaryIndexes(g -> {
                        g.indexName("ByStatus")
                                .keySchema(k -> k.attributeName("status").keyType(KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY));
                        if (billing == BillingMode.PROVISIONED) {
                            g.provisionedThroughput(
                                    t -> t.readCapacityUnits(1000L).writeCapacityUnits(1000L));
                        }
                    });
            if (billing == BillingMode.PROVISIONED) {
                b.provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L));
            }
        });
    }

    private static void put(DynamoDbClient c, String table, String customer, int order) {
        c.putItem(b -> b.tableName(table)
                .item(Map.of(
                        "customer",
                        s(customer),
                        "order",
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(String.valueOf(order)),
                        "status",
                        s("open"))));
    }

    @Test
    void accessedKeysOfATableAndItsIndexAreOnMetricsAndInTheConsole() throws Exception {
        try (ConsoleServer server = new ConsoleServer(ConsolePaths.Access.ON, null, null)) {
            DynamoDbClient c = server.client;
            createOrders(c, "Orders", BillingMode.PAY_PER_REQUEST);
            createOrders(c, "Unwatched", BillingMode.PAY_PER_REQUEST);
            c.updateContributorInsights(
                    b -> b.tableName("Orders").contributorInsightsAction(ContributorInsightsAction.ENABLE));
            c.updateContributorInsights(b -> b.tableName("Orders")
                    .indexName("ByStatus")
                    .contributorInsightsAction(ContributorInsightsAction.ENABLE));
            for (int i = 0; i < 5; i++) {
                put(c, "Orders", "alice", i);
                put(c, "Unwatched", "alice", i);
            }
            put(c, "Orders", "bob", 1);
            for (int i = 0; i < 3; i++) {
                c.getItem(b -> b.tableName("Orders")
                        .key(Map.of(
                                "customer",
                                s("alice"),
                                "order",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("4"))));
            }
            c.query(b -> b.tableName("Orders")
                    .indexName("ByStatus")
                    .keyConditionExpression("#s = :s")
                    .expressionAttributeNames(Map.of("#s", "status"))
                    .expressionAttributeValues(Map.of(":s", s("open"))));

            String m = get(server, "/metrics");
            assertThat(m).contains("# TYPE " + NAME + " gauge");
            assertThat(sample(m, "table=\"Orders\",index=\"\",rule=\"PKC\",partition_key=\"alice\""))
                    .as("five puts and three gets of alice")
                    .isEqualTo(8);
            assertThat(sample(m, "table=\"Orders\",index=\"\",rule=\"PKC\",partition_key=\"bob\""))
                    .isEqualTo(1);
            assertThat(sample(m, "table=\"Orders\",index=\"\",rule=\"SKC\",partition_key=\"alice\",sort_key=\"4\""))
                    .isEqualTo(4);
            assertThat(sample(m, "table=\"Orders\",index=\"ByStatus\",rule=\"PKC\",partition_key=\"open\""))
                    .as("the index's query")
                    .isEqualTo(1);
            assertThat(m).doesNotContain("table=\"Unwatched\"").doesNotContain("rule=\"PKT\",partition_key");

            String json = get(server, "/console/api/contributor-insights?table=Orders");
            assertThat(json)
                    .contains("\"table\":\"Orders\",\"index\":null,\"mode\":\"ACCESSED_AND_THROTTLED_KEYS\"")
                    .contains("\"PKC\":[{\"partitionKey\":{\"S\":\"alice\"},\"count\":8}")
                    .contains("\"index\":\"ByStatus\"")
                    .contains("\"PKT\":[]");
            assertThat(get(server, "/console/api/contributor-insights?table=Unwatched"))
                    .isEqualTo("{\"resources\":[]}");

            c.updateContributorInsights(
                    b -> b.tableName("Orders").contributorInsightsAction(ContributorInsightsAction.DISABLE));
            put(c, "Orders", "alice", 9);
            String after = get(server, "/metrics");
            assertThat(after).doesNotContain("table=\"Orders\",index=\"\"");
            assertThat(sample(after, "table=\"Orders\",index=\"ByStatus\",rule=\"PKC\",partition_key=\"open\""))
                    .as("the index's setting is its own")
                    .isEqualTo(1);
        }
    }

    @Test
    void throttledKeysAreCountedUnderThrottlingAndTheThrottledModeCountsNothingElse() throws Exception {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        Engine engine = Engine.open(new MemoryStore(), clock, EngineSettings.DEFAULTS.withThrottling(true));
        try (ConsoleServer server = new ConsoleServer(engine, ConsolePaths.Access.ON, null, null)) {
            DynamoDbClient c = server.client;
            createOrders(c, "Busy", BillingMode.PROVISIONED);
            c.updateContributorInsights(b -> b.tableName("Busy")
                    .contributorInsightsAction(ContributorInsightsAction.ENABLE)
                    .contributorInsightsMode(ContributorInsightsMode.THROTTLED_KEYS));
            // 1 WCU with 300 seconds of burst, on a clock that stands still: the 301st write is refused.
            int throttled = 0;
            for (int i = 0; i < 320; i++) {
                try {
                    put(c, "Busy", "hot", i % 3);
                } catch (ProvisionedThroughputExceededException e) {
                    throttled++;
                }
            }
            assertThat(throttled).isEqualTo(20);
            String m = get(server, "/metrics");
            assertThat(sample(m, "table=\"Busy\",index=\"\",rule=\"PKT\",partition_key=\"hot\""))
                    .isEqualTo(throttled);
            long bySortKey = 0;
            for (int order = 0; order < 3; order++) {
                bySortKey += sample(
                        m, "table=\"Busy\",index=\"\",rule=\"SKT\",partition_key=\"hot\",sort_key=\"" + order + "\"");
            }
            assertThat(bySortKey).isEqualTo(throttled);
            assertThat(m).as("no accessed keys in this mode").doesNotContain("rule=\"PKC\"");
        }
    }
}
