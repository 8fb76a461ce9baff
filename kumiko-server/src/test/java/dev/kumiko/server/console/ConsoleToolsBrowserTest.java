package dev.kumiko.server.console;

import static dev.kumiko.server.console.ConsoleBrowserTest.WAIT;
import static dev.kumiko.server.console.ConsoleBrowserTest.js;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SearchSchemaElementType;
import software.amazon.awssdk.services.dynamodb.model.SearchVectorsResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;

/**
 * The console's tools in headless Chromium (issue #63 item 5, issue #61): creating a table (keys,
 * billing, a GSI, a vector index, and DynamoDB's error for a bad one), deleting one only after confirmation, a
 * PartiQL statement with parameters paged by NextToken, a vector search by a pasted vector and by
 * an item's embedding with scores, and a page that loads without a failed request (the favicon).
 * What the console shows is compared with what the SDK gets for the same request.
 */
@Tag("slow") // starts headless Chromium
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleToolsBrowserTest {
    static final String CREATED = "Orders-console";
    static final String PARTIQL = "Events";
    static final String DOCS = "docs";
    static final int DIMENSIONS = 8;
    static final int DOCS_ITEMS = 40;

    ConsoleServer server;
    Chromium browser;
    Path screenshots;

    @BeforeAll
    void start() throws Exception {
        Path binary = Chromium.requireBinary();
        screenshots = Path.of(System.getProperty("kumiko.console.screenshots", "target/console-screenshots"));
        Files.createDirectories(screenshots);
        server = new ConsoleServer(ConsolePaths.Access.ON, null, null);
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
        browser.waitFor(
                "document.getElementById('tables') && document.getElementById('tables').textContent.includes('Tables')",
                WAIT);
    }

    private static String tablePath(String table, String view) {
        return "#/t/" + URLEncoder.encode(table, StandardCharsets.UTF_8) + "/" + view;
    }

    private void shot(String name) throws IOException {
        Files.write(screenshots.resolve(name + ".png"), browser.screenshot());
        assertThat(Layout.overflows(browser))
                .as("containers overflowing on the %s view", name)
                .isEmpty();
    }

    private String text(String selector) {
        return String.valueOf(browser.eval("document.querySelector(" + js(selector) + ").innerText"));
    }

    private void set(String selector, String value) {
        browser.eval("(() => { const e = document.querySelector(" + js(selector) + "); e.value = " + js(value)
                + "; e.dispatchEvent(new Event('change', {bubbles: true})); })()");
    }

    private void click(String selector) {
        browser.eval("document.querySelector(" + js(selector) + ").click()");
    }

    @Test
    @Order(1)
    void theConsoleLoadsWithoutAFailedRequestAndServesItsIcon() throws Exception {
        open("");
        browser.waitFor("document.querySelector('#view h1')", WAIT);
        HttpResponse<byte[]> icon = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.endpoint() + "/console/favicon.svg"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(icon.statusCode()).isEqualTo(200);
        assertThat(icon.headers().firstValue("content-type")).hasValue("image/svg+xml");
        assertThat(browser.failedResponses()).as("responses of 400 and more").isEmpty();
        assertThat(browser.eval("document.querySelector('link[rel=icon]').href"))
                .isEqualTo(server.endpoint() + "/console/favicon.svg");
    }

    @Test
    @Order(2)
    void aTableIsCreatedWithKeysProvisionedCapacityAndAGsi() throws Exception {
        open("#/create");
        browser.waitFor("document.querySelector('#create-form')", WAIT);
        set("#create-form [name=TableName]", CREATED);
        set("#create-form [name=pk]", "customer");
        set("#create-form [name=sk]", "orderedAt");
        set("#create-form [name=skType]", "N");
        set("#create-form [name=billing]", "PROVISIONED");
        set("#create-form [name=rcu]", "7");
        set("#create-form [name=wcu]", "3");
        set("#create-form [name=stream]", "NEW_IMAGE");
        click("#add-gsi");
        set("#create-form fieldset.gsi [name=gsiName]", "byStatus");
        set("#create-form fieldset.gsi [name=gsiPk]", "status");
        set("#create-form fieldset.gsi [name=gsiSk]", "orderedAt");
        set("#create-form fieldset.gsi [name=gsiSkType]", "N");
        set("#create-form fieldset.gsi [name=gsiProjection]", "INCLUDE");
        set("#create-form fieldset.gsi [name=gsiInclude]", "total, items");
        shot("create-table");
        click("#create");
        browser.waitFor("location.hash.endsWith('/overview') && document.querySelector('#delete-table')", WAIT);

        TableDescription t =
                server.client.describeTable(b -> b.tableName(CREATED)).table();
        assertThat(t.keySchema())
                .extracting(k -> k.attributeName() + " " + k.keyType())
                .containsExactly("customer HASH", "orderedAt RANGE");
        assertThat(t.attributeDefinitions())
                .extracting(a -> a.attributeName() + " " + a.attributeType())
                .containsExactlyInAnyOrder("customer S", "orderedAt N", "status S");
        assertThat(t.provisionedThroughput().readCapacityUnits()).isEqualTo(7L);
        assertThat(t.provisionedThroughput().writeCapacityUnits()).isEqualTo(3L);
        assertThat(t.streamSpecification().streamViewTypeAsString()).isEqualTo("NEW_IMAGE");
        assertThat(t.globalSecondaryIndexes()).hasSize(1);
        var gsi = t.globalSecondaryIndexes().get(0);
        assertThat(gsi.indexName()).isEqualTo("byStatus");
        assertThat(gsi.keySchema())
                .extracting(k -> k.attributeName() + " " + k.keyType())
                .containsExactly("status HASH", "orderedAt RANGE");
        assertThat(gsi.projection().projectionType()).isEqualTo(ProjectionType.INCLUDE);
        assertThat(gsi.projection().nonKeyAttributes()).containsExactly("total", "items");
        assertThat(gsi.provisionedThroughput().readCapacityUnits()).isEqualTo(7L);
    }

    /** The console shows the error type and message the SDK gets for the same request. */
    @Test
    @Order(3)
    void aCreateTableErrorIsShownAsDynamoDbWordsIt() throws Exception {
        open("#/create");
        browser.waitFor("document.querySelector('#create-form')", WAIT);
        set("#create-form [name=TableName]", CREATED);
        set("#create-form [name=pk]", "customer");
        click("#create");
        browser.waitFor("document.querySelector('#create-answer .answer.error')", WAIT);
        DynamoDbException inUse = catchThrowableOfType(
                () -> server.client.createTable(b -> b.tableName(CREATED)
                        .attributeDefinitions(a -> a.attributeName("customer").attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName("customer").keyType(KeyType.HASH))
                        .billingMode(BillingMode.PAY_PER_REQUEST)),
                DynamoDbException.class);
        assertThat(browser.eval("document.querySelector('#create-answer .answer').dataset.answer"))
                .isEqualTo(inUse.awsErrorDetails().errorCode());
        assertThat(text("#create-answer")).contains(inUse.awsErrorDetails().errorMessage());

        set("#create-form [name=TableName]", "Orders-2");
        click("#add-gsi");
        set("#create-form fieldset.gsi [name=gsiName]", "ab");
        set("#create-form fieldset.gsi [name=gsiPk]", "status");
        click("#create");
        browser.waitFor(
                "document.querySelector('#create-answer .answer.error[data-answer=ValidationException]')", WAIT);
        DynamoDbException badName = catchThrowableOfType(
                () -> server.client.createTable(b -> b.tableName("Orders-2")
                        .attributeDefinitions(
                                a -> a.attributeName("customer").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName("customer").keyType(KeyType.HASH))
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .globalSecondaryIndexes(g -> g.indexName("ab")
                                .keySchema(k -> k.attributeName("status").keyType(KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.ALL)))),
                DynamoDbException.class);
        assertThat(text("#create-answer")).contains(badName.awsErrorDetails().errorMessage());
        shot("create-table-error");
    }

    @Test
    @Order(4)
    void aTableIsDeletedOnlyAfterItsNameIsTyped() throws Exception {
        open(tablePath(CREATED, "overview"));
        browser.waitFor("document.querySelector('#delete-table')", WAIT);
        click("#delete-table");
        browser.waitFor("document.querySelector('#delete-confirm:not([hidden])')", WAIT);
        assertThat(browser.eval("document.querySelector('#delete-confirmed').disabled"))
                .isEqualTo(true);
        click("#delete-confirmed");
        assertThat(server.client
                        .describeTable(b -> b.tableName(CREATED))
                        .table()
                        .tableName())
                .isEqualTo(CREATED);
        set("#delete-confirm [name=confirmName]", CREATED.substring(1));
        assertThat(browser.eval("document.querySelector('#delete-confirmed').disabled"))
                .isEqualTo(true);
        set("#delete-confirm [name=confirmName]", CREATED);
        shot("delete-table");
        click("#delete-confirmed");
        browser.waitFor(
                "!location.hash.includes('/t/') && !document.querySelector('nav#tables a[data-table="
                        + js(CREATED).replace('\'', '"') + "]')",
                WAIT);
        assertThat(catchThrowableOfType(
                        () -> server.client.describeTable(b -> b.tableName(CREATED)), ResourceNotFoundException.class))
                .isNotNull();
    }

    @Test
    @Order(5)
    @SuppressWarnings("unchecked")
    void aPartiqlStatementRunsWithParametersAndPagesByNextToken() throws Exception {
        server.client.createTable(b -> b.tableName(PARTIQL)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("n").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("n").keyType(KeyType.RANGE))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        for (int i = 0; i < 5; i++) {
            String n = Integer.toString(i);
            server.client.putItem(b ->
                    b.tableName(PARTIQL).item(Map.of("pk", AttributeValue.fromS("a"), "n", AttributeValue.fromN(n))));
        }
        server.client.putItem(b ->
                b.tableName(PARTIQL).item(Map.of("pk", AttributeValue.fromS("b"), "n", AttributeValue.fromN("0"))));
        String statement = "SELECT * FROM \"" + PARTIQL + "\" WHERE pk = ?";
        ExecuteStatementResponse sdkFirst = server.client.executeStatement(b ->
                b.statement(statement).parameters(AttributeValue.fromS("a")).limit(2));
        assertThat(sdkFirst.nextToken()).isNotNull();

        open(tablePath(PARTIQL, "partiql"));
        browser.waitFor("document.querySelector('#partiql-form')", WAIT);
        set("#partiql-form [name=statement]", statement);
        set("#partiql-form [name=parameters]", "[{\"S\": \"a\"}]");
        set("#partiql-form [name=limit]", "2");
        click("#partiql-run");
        List<String> seen = new ArrayList<>();
        for (int page = 1; page <= 5; page++) {
            browser.waitFor("document.querySelector('#partiql-result h2[data-page=\"" + page + "\"]')", WAIT);
            seen.addAll((List<String>) (List<?>) browser.eval("Array.from(document.querySelectorAll("
                    + "'#partiql-result tr[data-item]')).map(r => JSON.parse(r.dataset.item).n.N)"));
            if (page == 1) {
                assertThat(seen).hasSize(sdkFirst.items().size());
                shot("partiql");
            }
            if (Boolean.FALSE.equals(browser.eval("!!document.querySelector('#partiql-next')"))) {
                break;
            }
            click("#partiql-next");
        }
        assertThat(seen).containsExactly("0", "1", "2", "3", "4");

        set("#partiql-form [name=statement]", "SELECT * FROM \"NoSuchTable\"");
        set("#partiql-form [name=parameters]", "");
        click("#partiql-run");
        browser.waitFor("document.querySelector('#partiql-result .answer.error')", WAIT);
        DynamoDbException missing = catchThrowableOfType(
                () -> server.client.executeStatement(b -> b.statement("SELECT * FROM \"NoSuchTable\"")),
                DynamoDbException.class);
        assertThat(browser.eval("document.querySelector('#partiql-result .answer').dataset.answer"))
                .isEqualTo(missing.awsErrorDetails().errorCode());
        assertThat(text("#partiql-result")).contains(missing.awsErrorDetails().errorMessage());
    }

    /** A stand-in for an embedding model: seeded Gaussian noise, the same on every run. */
    static float[] vector(int seed) {
        Random r = new Random(1000L + seed);
        float[] v = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            v[d] = (float) r.nextGaussian();
        }
        return v;
    }

    static List<AttributeValue> list(float[] v) {
        List<AttributeValue> out = new ArrayList<>();
        for (float f : v) {
            out.add(AttributeValue.fromN(Float.toString(f)));
        }
        return out;
    }

    static String json(float[] v) {
        StringBuilder s = new StringBuilder("[");
        for (float f : v) {
            s.append(s.length() > 1 ? ", " : "").append(f);
        }
        return s.append("]").toString();
    }

    private void putDocs() {
        for (int i = 0; i < DOCS_ITEMS; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("id", AttributeValue.fromS("i" + i));
            item.put("emb", AttributeValue.fromL(list(vector(i))));
            item.put("category", AttributeValue.fromS(i % 3 == 0 ? "red" : "blue"));
            server.client.putItem(b -> b.tableName(DOCS).item(item));
        }
    }

    /** The form's vector index; on a PROVISIONED table first, which DynamoDB refuses in its words. */
    @Test
    @Order(6)
    void aTableWithAVectorIndexIsCreated() throws Exception {
        open("#/create");
        browser.waitFor("document.querySelector('#create-form')", WAIT);
        set("#create-form [name=TableName]", DOCS);
        set("#create-form [name=pk]", "id");
        set("#create-form [name=billing]", "PROVISIONED");
        click("#add-vector-index");
        set("#create-form fieldset.vector [name=vName]", "byMeaning");
        set("#create-form fieldset.vector [name=vAttribute]", "emb");
        set("#create-form fieldset.vector [name=vDimensions]", Integer.toString(DIMENSIONS));
        set("#create-form fieldset.vector [name=vDistance]", "COSINE");
        set("#create-form fieldset.vector [name=vFilters]", "category");
        click("#create");
        browser.waitFor("document.querySelector('#create-answer .answer.error')", WAIT);
        DynamoDbException provisioned = catchThrowableOfType(
                () -> server.client.createTable(b -> b.tableName(DOCS)
                        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                        .billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L))
                        .vectorIndexes(v -> v.indexName("byMeaning")
                                .vectorAttribute(a -> a.attributeName("emb"))
                                .dimensions((long) DIMENSIONS)
                                .distanceFunction(VectorDistanceFunction.COSINE)
                                .searchSchema(s -> s.attributeName("category")
                                        .searchSchemaElementType(SearchSchemaElementType.INLINE_FILTER))
                                .projection(p -> p.projectionType(ProjectionType.ALL)))),
                DynamoDbException.class);
        assertThat(text("#create-answer"))
                .contains(provisioned.awsErrorDetails().errorMessage());

        set("#create-form [name=billing]", "PAY_PER_REQUEST");
        click("#create");
        browser.waitFor("location.hash.endsWith('/overview') && document.querySelector('#vector-indexes')", WAIT);
        TableDescription t = server.client.describeTable(b -> b.tableName(DOCS)).table();
        assertThat(t.vectorIndexes()).hasSize(1);
        var index = t.vectorIndexes().get(0);
        assertThat(index.indexName()).isEqualTo("byMeaning");
        assertThat(index.vectorAttribute().attributeName()).isEqualTo("emb");
        assertThat(index.dimensions()).isEqualTo((long) DIMENSIONS);
        assertThat(index.distanceFunction()).isEqualTo(VectorDistanceFunction.COSINE);
        assertThat(index.searchSchema())
                .extracting(e -> e.attributeName() + " " + e.searchSchemaElementTypeAsString())
                .containsExactly("category INLINE_FILTER");
        assertThat(index.projection().projectionType()).isEqualTo(ProjectionType.ALL);
        assertThat(text("#vector-indexes tr[data-vector-index=byMeaning]")).contains("emb", "8", "COSINE");
    }

    @SuppressWarnings("unchecked")
    private List<String> resultIds() {
        return (List<String>) (List<?>) browser.eval("Array.from(document.querySelectorAll("
                + "'#vector-results tr[data-item]')).map(r => JSON.parse(r.dataset.item).id.S)");
    }

    @SuppressWarnings("unchecked")
    private List<Double> resultScores() {
        return ((List<Object>) browser.eval("Array.from(document.querySelectorAll("
                        + "'#vector-results tr[data-item]')).map(r => r.dataset.score)"))
                .stream().map(s -> Double.parseDouble(String.valueOf(s))).toList();
    }

    @Test
    @Order(7)
    void aVectorSearchByAPastedVectorShowsTheSdksResultsAndScores() throws Exception {
        putDocs();
        open(tablePath(PARTIQL, "overview"));
        // the tabs are drawn again once the table is described, before its overview's heading
        browser.waitFor(
                "document.querySelector('#view h1') && document.querySelector('#view h1').textContent === "
                        + js(PARTIQL),
                WAIT);
        assertThat(browser.eval("!!document.querySelector('#tabs a[data-view=vector]')"))
                .as("a table without vector indexes has no vector tab")
                .isEqualTo(false);

        open(tablePath(DOCS, "vector"));
        browser.waitFor("document.querySelector('#vector-form')", WAIT);
        assertThat(browser.eval("!!document.querySelector('#tabs a[data-view=vector]')"))
                .isEqualTo(true);
        float[] q = vector(5000);
        set("#vector-form [name=vector]", json(q));
        set("#vector-form [name=topk]", "5");
        click("#vector-run");
        browser.waitFor("document.querySelector('#vector-results tr[data-item]')", WAIT);
        SearchVectorsResponse sdk = server.client.searchVectors(b ->
                b.tableName(DOCS).indexName("byMeaning").searchVector(list(q)).topK(5));
        assertThat(resultIds())
                .containsExactlyElementsOf(sdk.searchResults().stream()
                        .map(x -> x.item().get("id").s())
                        .toList());
        List<Double> scores = resultScores();
        for (int i = 0; i < scores.size(); i++) {
            assertThat(scores.get(i)).isEqualTo(sdk.searchResults().get(i).score());
        }
        shot("vector-search");

        set("#vector-form [name=filter]", "category = :c");
        set("#vector-form [name=values]", "{\":c\": {\"S\": \"red\"}}");
        click("#vector-run");
        browser.waitFor(
                "Array.from(document.querySelectorAll('#vector-results tr[data-item]'))"
                        + ".every(r => JSON.parse(r.dataset.item).category.S === 'red')"
                        + " && document.querySelector('#vector-results tr[data-item]')",
                WAIT);
        assertThat(resultIds()).hasSize(5);
    }

    @Test
    @Order(8)
    void aVectorSearchByAnItemsEmbeddingFindsTheItemFirst() throws Exception {
        open(""); // the same hash again would not redraw the view
        open(tablePath(DOCS, "vector"));
        browser.waitFor("document.querySelector('#vector-form')", WAIT);
        click("#vector-form [name=source][value=item]");
        set("#vector-form [name=pk]", "i7");
        set("#vector-form [name=topk]", "3");
        click("#vector-run");
        browser.waitFor("document.querySelector('#vector-results tr[data-item]')", WAIT);
        List<String> ids = resultIds();
        assertThat(ids).hasSize(3);
        assertThat(ids.get(0)).isEqualTo("i7");
        assertThat(resultScores().get(0)).isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(String.valueOf(browser.eval("document.querySelector('#vector-form [name=vector]').value")))
                .as("the item's embedding, shown as the vector searched")
                .startsWith("[" + vector(7)[0]);

        set("#vector-form [name=pk]", "no-such-item");
        click("#vector-run");
        browser.waitFor("document.querySelector('#vector-result .answer.error')", WAIT);
        assertThat(text("#vector-result")).contains("no-such-item");
        shot("vector-search-item");
    }
}
