package dev.kumiko.server.console;

import static dev.kumiko.server.console.ChatSeed.GSI1;
import static dev.kumiko.server.console.ChatSeed.TABLE;
import static dev.kumiko.server.console.ChatSeed.n;
import static dev.kumiko.server.console.ChatSeed.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.cli.ConsoleModelFile;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The console in a real browser (headless Chromium over the DevTools protocol) on seed 000's chat
 * table: the tables, the entity groups, a room's messages newest first, an index query with its
 * RCU, item editing with a condition, a stream record (and a TTL delete's marker), hot keys. Each
 * view's screenshot goes to {@code kumiko.console.screenshots} (docs/console/ when the manual's
 * pictures are renewed; target/ otherwise).
 *
 * <p>Without Chromium the test is skipped with a message, except in CI (CI set), where it fails:
 * CI installs Chromium, so its absence there is a broken setup, not a reason to pass.
 */
@Tag("slow") // starts headless Chromium: seconds each, left out of -Pquick
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
    static final Duration WAIT = Duration.ofSeconds(20);
    /** Names one entity the way a model file does; the others keep their prefix names. */
    static final byte[] MODEL = ("{\"entities\": [{\"name\": \"Room\", \"table\": \"" + TABLE
                    + "\", \"pk\": \"CHATROOM#\", \"sk\": \"METADATA\"}]}")
            .getBytes(StandardCharsets.UTF_8);

    ConsoleServer server;
    Chromium browser;
    Path screenshots;

    @BeforeAll
    void start() throws Exception {
        Path binary = Chromium.requireBinary();
        screenshots = Path.of(System.getProperty("kumiko.console.screenshots", "target/console-screenshots"));
        Files.createDirectories(screenshots);
        server = new ConsoleServer(ConsolePaths.Access.ON, MODEL, null);
        ChatSeed.create(server.client);
        ChatSeed.load(server.client);
        browser = new Chromium(binary);
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void open(String hash) throws InterruptedException {
        browser.navigate(server.endpoint() + "/console/" + hash);
        browser.waitFor("document.querySelector('nav#tables a[data-table]')", WAIT);
    }

    private static String tablePath(String view) {
        return "#/t/" + URLEncoder.encode(TABLE, StandardCharsets.UTF_8) + "/" + view;
    }

    /** The view's screenshot, after checking that nothing on it is wider than its container. */
    private void shot(String name) throws IOException {
        Files.write(screenshots.resolve(name + ".png"), browser.screenshot());
        assertThat(Layout.overflows(browser))
                .as("containers overflowing on the %s view", name)
                .isEmpty();
    }

    private String text(String selector) {
        return String.valueOf(browser.eval("document.querySelector(" + js(selector) + ").innerText"));
    }

    static String js(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Test
    @Order(1)
    void tablesShowKeysIndexesTtlStreamAndCounts() throws Exception {
        open("");
        browser.waitFor("document.querySelector('#table-list tr[data-table]')", WAIT);
        String row = text("#table-list tr[data-table]");
        assertThat(row).contains(TABLE, "PK", "SK", "GSI1", "ttl", "NEW_AND_OLD_IMAGES");
        int items = 3 * 2 + 2 + (2 + 3) + ChatSeed.MESSAGES + 1;
        assertThat(row).contains("\t" + items + "\t");
        shot("tables");
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void entitiesAreGroupedByKeyPrefixAndNamedByTheModel() throws Exception {
        open(tablePath("entities"));
        browser.waitFor("document.querySelector('.entity-group')", WAIT);
        List<Object> groups = (List<Object>)
                browser.eval("Array.from(document.querySelectorAll('[data-group]')).map(g => g.dataset.group)");
        assertThat(groups).containsExactlyInAnyOrder("CONNECTION#", "USER#", "CHATROOM#");
        String rooms = "[data-group=\"CHATROOM#\"] ";
        assertThat(browser.eval("document.querySelector('" + rooms + "[data-entity=\"Room\"]').dataset.count"))
                .isEqualTo("2");
        assertThat(browser.eval("document.querySelector('" + rooms + "[data-entity=\"MESSAGE#\"]').dataset.count"))
                .isEqualTo(String.valueOf(ChatSeed.MESSAGES));
        List<Object> users = (List<Object>) browser.eval("Array.from(document.querySelectorAll("
                + "'[data-group=\"USER#\"] [data-entity]')).map(e => e.dataset.entity)");
        assertThat(users).containsExactlyInAnyOrder("CONNECTION#", "CHATROOM#");
        browser.eval("document.querySelector('" + rooms + "[data-entity=\"MESSAGE#\"]').click()");
        shot("entities");
    }

    @Test
    @Order(3)
    @SuppressWarnings("unchecked")
    void aRoomsMessagesShowNewestFirst() throws Exception {
        open(tablePath("collection") + "?pk=" + URLEncoder.encode("CHATROOM#" + ChatSeed.ROOM, StandardCharsets.UTF_8)
                + "&order=newest");
        browser.waitFor("document.querySelector('[data-collection-entity=\"MESSAGE#\"]')", WAIT);
        List<Object> sks = (List<Object>) browser.eval("Array.from(document.querySelectorAll("
                + "'[data-collection-entity=\"MESSAGE#\"] tr[data-item]')).map(r => JSON.parse(r.dataset.item).SK.S)");
        List<String> expected = new ArrayList<>(ChatSeed.messageSortKeys());
        java.util.Collections.reverse(expected);
        assertThat(sks).containsExactlyElementsOf(expected);
        List<Object> entities = (List<Object>) browser.eval("Array.from(document.querySelectorAll("
                + "'[data-collection-entity]')).map(e => e.dataset.collectionEntity)");
        assertThat(entities).containsExactly("Room", "MESSAGE#", "LASTMESSAGE");
        assertThat(browser.eval("document.querySelector('[data-rcu]').dataset.rcu"))
                .isNotEqualTo("0");
        assertThat(browser.eval("document.querySelector('input[name=newest]').checked"))
                .isEqualTo(true);
        shot("collection");
    }

    @Test
    @Order(4)
    void anIndexQueryShowsItsCapacityItemsAndCode() throws Exception {
        String user = "USERROOMS#" + ChatSeed.USERS[0];
        open(tablePath("query") + "?index=" + GSI1 + "&pk=" + URLEncoder.encode(user, StandardCharsets.UTF_8));
        browser.waitFor("document.querySelector('#capacity')", WAIT);
        QueryResponse sdk = server.client.query(b -> b.tableName(TABLE)
                .indexName(GSI1)
                .keyConditionExpression("GSI1PK = :u")
                .expressionAttributeValues(Map.of(":u", s(user)))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        double gsiUnits =
                sdk.consumedCapacity().globalSecondaryIndexes().get(GSI1).capacityUnits();
        assertThat(gsiUnits).isPositive();
        assertThat(text("#capacity tr[data-capacity=\"GSI GSI1\"]")).contains(number(gsiUnits));
        assertThat(text("#capacity tr[data-capacity=\"Total\"]"))
                .contains(number(sdk.consumedCapacity().capacityUnits()));
        assertThat(browser.eval("document.querySelector('[data-stat=count]').innerText"))
                .isEqualTo(String.valueOf(sdk.count()));
        assertThat(browser.eval("document.querySelector('[data-stat=scanned]').innerText"))
                .isEqualTo(String.valueOf(sdk.scannedCount()));
        assertThat(text("pre[data-code=\"AWS CLI\"]"))
                .contains("aws dynamodb query", "--index-name 'GSI1'", "--return-consumed-capacity 'INDEXES'");
        assertThat(String.valueOf(browser.eval("document.querySelector('pre[data-code=boto3]').textContent")))
                .contains("client.query(", "IndexName=\"GSI1\"");
        assertThat(String.valueOf(
                        browser.eval("document.querySelector('pre[data-code=\"SDK for Java v2\"]').textContent")))
                .contains("QueryRequest.builder()", ".indexName(\"GSI1\")");
        shot("query");
    }

    /** 0.5 → "0.5", 1.0 → "1", as JavaScript prints numbers. */
    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    @Test
    @Order(5)
    void aConditionalPutShowsDynamoDbsAnswer() throws Exception {
        open(tablePath("items"));
        browser.waitFor("document.querySelector('#item-form')", WAIT);
        String item = "{\"PK\": {\"S\": \"USER#user-004\"}, \"SK\": {\"S\": \"PROFILE\"}, \"name\": {\"S\": \"Dana\"}}";
        browser.eval("document.querySelector('[name=item]').value = " + js(item)
                + "; document.querySelector('[name=condition]').value = 'attribute_not_exists(PK)'");
        browser.eval("document.querySelector('button[data-op=PutItem]').click()");
        browser.waitFor("document.querySelector('[data-answer=ok]')", WAIT);
        browser.eval("document.querySelector('button[data-op=PutItem]').click()");
        browser.waitFor("document.querySelector('[data-answer=ConditionalCheckFailedException]')", WAIT);
        assertThat(text("#answer")).contains("The conditional request failed");
        shot("items");
    }

    @Test
    @Order(6)
    void theStreamTailShowsNewRecordsAndMarksTtlDeletes() throws Exception {
        open(tablePath("stream"));
        browser.waitFor("document.querySelector('#stream-records tbody tr')", WAIT);
        server.client.putItem(b -> b.tableName(TABLE)
                .item(Map.of(
                        "PK",
                        s("CONNECTION#conn-gone"),
                        "SK",
                        s("METADATA"),
                        "userId",
                        s("user-002"),
                        "ttl",
                        n(System.currentTimeMillis() / 1000 - 60))));
        browser.waitFor(
                "Array.from(document.querySelectorAll('#stream-records tr[data-event=INSERT]'))"
                        + ".some(r => r.innerText.includes('conn-gone'))",
                WAIT);
        // The background sweeper (every second) may have deleted it already; this only hastens it.
        server.engine.admin().sweepTimeToLive();
        browser.waitFor("document.querySelector('#stream-records tr[data-event=REMOVE][data-ttl=yes]')", WAIT);
        assertThat(text("#stream-records tr[data-ttl=yes]")).contains("TTL", "conn-gone");
        shot("stream");
    }

    @Test
    @Order(7)
    void hotKeysShowBusyKeysAndFlagOnesNearThePartitionLimit() throws Exception {
        for (int i = 0; i < 40; i++) {
            server.client.getItem(b ->
                    b.tableName(TABLE).key(Map.of("PK", s("CHATROOM#" + ChatSeed.ROOM), "SK", s("LASTMESSAGE"))));
        }
        // Five writes of ~390 WCU to one key: however they fall across a second boundary, one
        // second gets three (~1,170 WCU), past 80% of the 1,000 WCU per-partition limit.
        String blob = "x".repeat(390 * 1024);
        for (int i = 0; i < 5; i++) {
            String sk = "UPLOAD#" + i;
            server.client.putItem(
                    b -> b.tableName(TABLE).item(Map.of("PK", s("CHATROOM#room-hot"), "SK", s(sk), "blob", s(blob))));
        }
        open(tablePath("hotkeys"));
        browser.waitFor("document.querySelector('#hot-keys tbody tr')", WAIT);
        assertThat(browser.eval("document.querySelector('#hot-keys tbody tr').dataset.key"))
                .isEqualTo("CHATROOM#room-hot");
        assertThat(text("#hot-keys tbody tr")).contains("near limit");
        assertThat(browser.eval("document.querySelector('#hot-keys tr[data-key=\"CHATROOM#" + ChatSeed.ROOM
                        + "\"]').className"))
                .isEqualTo("");
        assertThat(text("#hot-keys tr[data-key=\"USERROOMS#" + ChatSeed.USERS[0] + "\"]"))
                .as("the GSI1 query's index partition")
                .contains(GSI1);
        shot("hotkeys");
    }

    /**
     * The model file that `model check` reads (examples/models/chat.json) names the seed's items in the
     * browser by their key templates (issue #63), on a table the model does not name ("-dev") whose keys
     * are the model's; the served model is ConsoleModelFile's, the matching entities.js's own.
     */
    @Test
    @Order(8)
    @SuppressWarnings("unchecked")
    void theModelCheckFileNamesEveryEntityByItsKeyTemplates() throws Exception {
        String model = new String(ConsoleModelFile.load(ConsoleModelFileTest.CHAT), StandardCharsets.UTF_8);
        String user = ChatSeed.USERS[0];
        String room = "CHATROOM#" + ChatSeed.ROOM;
        List<List<String>> keys = List.of(
                List.of("CONNECTION#c-1", "METADATA"),
                List.of("USER#" + user, "CONNECTION#c-1"),
                List.of("USER#" + user, room),
                List.of(room, "METADATA"),
                List.of(room, ChatSeed.messageSortKeys().get(0)),
                List.of(room, "LASTMESSAGE"),
                List.of("CHATROOM#room-hot", "UPLOAD#0"));
        StringBuilder items = new StringBuilder("[");
        for (List<String> k : keys) {
            items.append(items.length() > 1 ? "," : "")
                    .append("[")
                    .append(js(k.get(0)))
                    .append(",")
                    .append(js(k.get(1)))
                    .append("]");
        }
        items.append("]");
        open(tablePath("entities"));
        List<Object> names = (List<Object>) browser.eval("(() => { const saved = K.model; K.model = " + model
                + "; try { const t = {TableName: " + js(TABLE) + ", KeySchema: [{AttributeName: 'PK', KeyType: "
                + "'HASH'}, {AttributeName: 'SK', KeyType: 'RANGE'}]}; return " + items + ".map(([pk, sk]) => "
                + "{ const e = K.entityOf(t, {PK: {S: pk}, SK: {S: sk}}); return e.named ? e.name : '-' + e.name; }); "
                + "} finally { K.model = saved; } })()");
        assertThat(names)
                .containsExactly(
                        "Connection",
                        "UserConnection",
                        "ChatParticipation",
                        "ChatRoom",
                        "Message",
                        "LastMessage",
                        "-UPLOAD#");
    }

    @Test
    @Order(9)
    @SuppressWarnings("unchecked")
    void aTablesOverviewShowsTheKeysContributorInsightsCounted() throws Exception {
        open(tablePath("overview"));
        browser.waitFor(
                "document.querySelector('#contributor-insights p.muted:not(:empty)') "
                        + "&& !document.querySelector('#contributor-insights').innerText.includes('Loading')",
                WAIT);
        assertThat(text("#contributor-insights")).contains("Off for this table");

        server.client.updateContributorInsights(b -> b.tableName(TABLE)
                .contributorInsightsAction(
                        software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction.ENABLE));
        for (int i = 0; i < 3; i++) {
            server.client.getItem(b ->
                    b.tableName(TABLE).key(Map.of("PK", s("CHATROOM#" + ChatSeed.ROOM), "SK", s("LASTMESSAGE"))));
        }
        open(""); // the same hash again would not redraw the view
        open(tablePath("overview"));
        browser.waitFor("document.querySelector('#contributor-insights table[data-rule=PKC] tbody tr')", WAIT);
        assertThat(text("#contributor-insights table[data-rule=PKC] tbody tr"))
                .contains("CHATROOM#" + ChatSeed.ROOM, "3");
        assertThat(text("#contributor-insights table[data-rule=SKC] tbody tr")).contains("LASTMESSAGE", "3");
        List<Object> rules = (List<Object>) browser.eval("Array.from(document.querySelectorAll("
                + "'#contributor-insights table[data-rule]')).map(t => t.dataset.rule)");
        assertThat(rules).containsExactly("PKC", "SKC");
        assertThat(text("#contributor-insights")).contains("Most throttled (partition key)", "No requests counted yet");
        shot("contributor-insights");
    }

    /** A message body of 3,000 characters without a space, as a pasted token or a base64 blob is. */
    static final String LONG_BODY = "Lorem-ipsum_".repeat(250);
    /** A sort key of 230 characters without a space. */
    static final String LONG_SK = "MESSAGE#1700000000000#" + "m".repeat(208);

    static final String LONG_ROOM = "CHATROOM#room-long";

    private void putLongMessages() {
        for (int i = 0; i < 3; i++) {
            String sk = LONG_SK + i;
            server.client.putItem(b -> b.tableName(TABLE)
                    .item(Map.of("PK", s(LONG_ROOM), "SK", s(sk), "body", s(LONG_BODY), "sender", s("user-001"))));
        }
    }

    /** Issue #63: long values ran off the item-collection page; now they are cut, and shown whole on demand. */
    @Test
    @Order(10)
    void longValuesStayOnTheItemCollectionPageAndCanBeSeenWhole() throws Exception {
        putLongMessages();
        open(tablePath("collection") + "?pk=" + URLEncoder.encode(LONG_ROOM, StandardCharsets.UTF_8));
        browser.waitFor("document.querySelector('[data-collection-entity] tr[data-item]')", WAIT);
        shot("long-values");
        String value = "document.querySelector('[data-collection-entity] td.long code.value')";
        assertThat(browser.eval(value + ".scrollWidth > " + value + ".clientWidth + 1"))
                .as("the long value is cut")
                .isEqualTo(true);
        browser.eval("document.querySelector('[data-collection-entity] td.long button.whole').click()");
        browser.waitFor("document.querySelector('[data-collection-entity] td.long.whole')", WAIT);
        assertThat(text("[data-collection-entity] td.long.whole")).contains(LONG_SK);
        assertThat(browser.eval(value + ".scrollWidth <= " + value + ".clientWidth + 1"))
                .as("the long value is shown whole, wrapped")
                .isEqualTo(true);
        assertThat(browser.eval("location.hash")).asString().contains("/collection");
        shot("long-values-whole");
    }

    /** Issue #63: a long LastEvaluatedKey and code crushed the query results' capacity column. */
    @Test
    @Order(11)
    void queryResultsKeepBothColumnsWithLongKeys() throws Exception {
        open(tablePath("query") + "?pk=" + URLEncoder.encode(LONG_ROOM, StandardCharsets.UTF_8) + "&limit=1");
        browser.waitFor("document.querySelector('#capacity') && document.querySelector('#next-page')", WAIT);
        assertThat(Layout.width(browser, "#result .cols > div"))
                .as("the capacity column's share of the results")
                .isGreaterThan(0.4 * Layout.width(browser, "#result .cols"));
        shot("query-long");
    }

    /** Issue #63: after an answer with a long item the edit form shrank to about 180 px. */
    @Test
    @Order(12)
    void theEditFormKeepsItsWidthAfterALongAnswer() throws Exception {
        open(tablePath("items"));
        browser.waitFor("document.querySelector('#item-form')", WAIT);
        String item = "{\"PK\": {\"S\": \"" + LONG_ROOM + "\"}, \"SK\": {\"S\": \"" + LONG_SK
                + "9\"}, \"body\": {\"S\": \"" + LONG_BODY + "\"}}";
        browser.eval("document.querySelector('[name=item]').value = " + js(item));
        browser.eval("document.querySelector('button[data-op=PutItem]').click()");
        browser.waitFor("document.querySelector('[data-answer=ok]')", WAIT);
        assertThat(Layout.width(browser, "[name=item]"))
                .as("the item editor's share of the form")
                .isGreaterThan(0.4 * Layout.width(browser, "#item-form"));
        shot("items-long");
    }

    /** Issue #63: the overview's cards clipped "PAY_PER_REQU…". */
    @Test
    @Order(13)
    void theOverviewCardsShowTheirWholeValues() throws Exception {
        open(""); // the same hash again would not redraw the view
        open(tablePath("overview"));
        browser.waitFor("document.querySelector('.card.stat b')", WAIT);
        assertThat(text("[data-stat=billing]")).isEqualTo("PAY_PER_REQUEST");
        assertThat(browser.eval("Array.from(document.querySelectorAll('.card.stat b'))"
                        + ".filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.innerText)"))
                .asList()
                .isEmpty();
        shot("overview");
    }
}
