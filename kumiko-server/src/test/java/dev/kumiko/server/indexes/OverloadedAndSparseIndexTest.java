package dev.kumiko.server.indexes;

import static dev.kumiko.server.Fixtures.def;
import static dev.kumiko.server.Fixtures.index;
import static dev.kumiko.server.Fixtures.item;
import static dev.kumiko.server.Fixtures.key;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Seed 004's index examples on its "MyApp" table as the CDK stack (code example 2c) defines it:
 * GSI1 (GSI1PK/GSI1SK, projection ALL) overloaded with three meanings (code example 5: e-mail →
 * user, status + date → order, category + price → product), and GSI2 (GSI2PK/GSI2SK,
 * KEYS_ONLY) used as a sparse index of featured products (code example 5b). Also the seed's
 * write-sharding fix for a hot GSI partition. A fresh server per test keeps the seed's item
 * sequences literal.
 */
@Tag("slow")
class OverloadedAndSparseIndexTest {
    static final String TABLE = "MyApp";

    TestServer server;
    DynamoDbClient c;

    @BeforeEach
    void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(def("PK"), def("SK"), def("GSI1PK"), def("GSI1SK"), def("GSI2PK"), def("GSI2SK"))
                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                .globalSecondaryIndexes(
                        g -> g.indexName("GSI1")
                                .keySchema(key("GSI1PK", KeyType.HASH), key("GSI1SK", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.ALL)),
                        g -> g.indexName("GSI2")
                                .keySchema(key("GSI2PK", KeyType.HASH), key("GSI2SK", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    // ---- code example 5: GSI overloading ----

    /** The three items of code example 5, verbatim, with the attributes create_user gives a profile. */
    static final Map<String, AttributeValue> TARO = item(
            "PK",
            s("USER#001"),
            "SK",
            s("PROFILE"),
            "GSI1PK",
            s("EMAIL#taro@example.com"),
            "GSI1SK",
            s("USER#001"),
            "name",
            s("Taro"),
            "email",
            s("taro@example.com"),
            "created_at",
            s("2026-01-02T03:04:05+00:00"));

    static final Map<String, AttributeValue> SHIPPED_FEB_11 = item(
            "PK",
            s("USER#001"),
            "SK",
            s("ORDER#001"),
            "GSI1PK",
            s("STATUS#SHIPPED"),
            "GSI1SK",
            s("2026-02-11T10:00:00Z"));
    static final Map<String, AttributeValue> HEADPHONES = item(
            "PK", s("PROD#001"), "SK", s("METADATA"), "GSI1PK", s("CAT#electronics"), "GSI1SK", s("PRICE#000029900"));

    /** More of each kind, so every meaning has neighbours it must not return. */
    static final Map<String, AttributeValue> HANAKO = item(
            "PK",
            s("USER#002"),
            "SK",
            s("PROFILE"),
            "GSI1PK",
            s("EMAIL#hanako@example.com"),
            "GSI1SK",
            s("USER#002"),
            "name",
            s("Hanako"),
            "email",
            s("hanako@example.com"));

    static final Map<String, AttributeValue> SHIPPED_JAN_05 = order("001", "002", "SHIPPED", "2026-01-05T08:00:00Z");
    static final Map<String, AttributeValue> SHIPPED_DEC_31 = order("002", "003", "SHIPPED", "2025-12-31T23:59:59Z");
    static final Map<String, AttributeValue> SHIPPED_FEB_28 = order("002", "004", "SHIPPED", "2026-02-28T09:00:00Z");
    static final Map<String, AttributeValue> SHIPPED_MAR_01 = order("001", "005", "SHIPPED", "2026-03-01T00:00:00Z");
    static final Map<String, AttributeValue> PENDING_FEB_01 = order("002", "006", "PENDING", "2026-02-01T12:00:00Z");
    static final Map<String, AttributeValue> EARPHONES = product("002", "electronics", "000003000");
    static final Map<String, AttributeValue> SPEAKER = product("003", "electronics", "000012800");
    static final Map<String, AttributeValue> TV = product("004", "electronics", "000098000");
    static final Map<String, AttributeValue> NOVEL = product("005", "books", "000001500");
    /** Not in GSI1 at all: no GSI1 attributes. */
    static final Map<String, AttributeValue> BALANCE =
            item("PK", s("ACCOUNT#001"), "SK", s("BALANCE"), "balance", Fixtures.n(1000));

    static Map<String, AttributeValue> order(String user, String order, String status, String date) {
        return item(
                "PK",
                s("USER#" + user),
                "SK",
                s("ORDER#" + order),
                "GSI1PK",
                s("STATUS#" + status),
                "GSI1SK",
                s(date),
                "total",
                Fixtures.n(1000 + Integer.parseInt(order)));
    }

    static Map<String, AttributeValue> product(String id, String category, String paddedPrice) {
        return item(
                "PK",
                s("PROD#" + id),
                "SK",
                s("METADATA"),
                "GSI1PK",
                s("CAT#" + category),
                "GSI1SK",
                s("PRICE#" + paddedPrice),
                "price",
                Fixtures.n(Long.parseLong(paddedPrice)));
    }

    private void putOverloadedItems() {
        for (Map<String, AttributeValue> i : List.of(
                TARO,
                SHIPPED_FEB_11,
                HEADPHONES,
                HANAKO,
                SHIPPED_JAN_05,
                SHIPPED_DEC_31,
                SHIPPED_FEB_28,
                SHIPPED_MAR_01,
                PENDING_FEB_01,
                EARPHONES,
                SPEAKER,
                TV,
                NOVEL,
                BALANCE)) {
            c.putItem(b -> b.tableName(TABLE).item(i));
        }
    }

    private QueryResponse gsi1(String keyCondition, Map<String, AttributeValue> values, boolean forward) {
        return c.query(b -> b.tableName(TABLE)
                .indexName("GSI1")
                .keyConditionExpression(keyCondition)
                .expressionAttributeValues(values)
                .scanIndexForward(forward));
    }

    /** AP-3 (find_user_by_email): GSI1PK = EMAIL#… finds exactly that user's profile. */
    @Test
    void overloadedGsiFindsAUserByEmail() {
        putOverloadedItems();
        QueryResponse r = gsi1("GSI1PK = :pk", Map.of(":pk", s("EMAIL#taro@example.com")), true);
        assertThat(r.items()).containsExactly(TARO);
    }

    /**
     * AP-4, code example 5's query: shipped orders with GSI1SK BETWEEN '2026-01-01' AND
     * '2026-02-28', newest first. Strings compare byte-wise, so '2026-02-28T09:00:00Z' is greater
     * than '2026-02-28' and falls outside, as in DynamoDB.
     */
    @Test
    void overloadedGsiFindsShippedOrdersInADateRangeNewestFirst() {
        putOverloadedItems();
        QueryResponse r = gsi1(
                "GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to",
                Map.of(":pk", s("STATUS#SHIPPED"), ":from", s("2026-01-01"), ":to", s("2026-02-28")),
                false);
        assertThat(r.items()).containsExactly(SHIPPED_FEB_11, SHIPPED_JAN_05);
        QueryResponse all = gsi1("GSI1PK = :pk", Map.of(":pk", s("STATUS#SHIPPED")), true);
        assertThat(all.items())
                .containsExactly(SHIPPED_DEC_31, SHIPPED_JAN_05, SHIPPED_FEB_11, SHIPPED_FEB_28, SHIPPED_MAR_01);
    }

    /** AP-5: category + price range, cheapest first, on the zero-padded price strings. */
    @Test
    void overloadedGsiFindsProductsOfACategoryInAPriceRange() {
        putOverloadedItems();
        QueryResponse r = gsi1(
                "GSI1PK = :pk AND GSI1SK BETWEEN :low AND :high",
                Map.of(":pk", s("CAT#electronics"), ":low", s("PRICE#000010000"), ":high", s("PRICE#000050000")),
                true);
        assertThat(r.items()).containsExactly(SPEAKER, HEADPHONES);
        QueryResponse category = gsi1(
                "GSI1PK = :pk AND begins_with(GSI1SK, :price)",
                Map.of(":pk", s("CAT#electronics"), ":price", s("PRICE#")),
                true);
        assertThat(category.items()).containsExactly(EARPHONES, SPEAKER, HEADPHONES, TV);
    }

    /** The overloaded index holds every item that has both GSI1 attributes, of every kind, and nothing else. */
    @Test
    void overloadedGsiHoldsEveryKindButOnlyItemsWithItsKeys() {
        putOverloadedItems();
        List<Map<String, AttributeValue>> scanned = scanAll("GSI1");
        assertThat(scanned)
                .containsExactlyInAnyOrder(
                        TARO,
                        SHIPPED_FEB_11,
                        HEADPHONES,
                        HANAKO,
                        SHIPPED_JAN_05,
                        SHIPPED_DEC_31,
                        SHIPPED_FEB_28,
                        SHIPPED_MAR_01,
                        PENDING_FEB_01,
                        EARPHONES,
                        SPEAKER,
                        TV,
                        NOVEL);
        TableDescription t = describe();
        assertThat(t.itemCount()).isEqualTo(14);
        assertThat(index(t, "GSI1").itemCount()).isEqualTo(13);
    }

    /**
     * The seed runs code example 5b after 5: its put_items of PROD#001 and PROD#002 replace the
     * whole items, and the replacements have no GSI1 attributes, so both leave GSI1 and the
     * featured one enters GSI2.
     */
    @Test
    void replacingAnItemWithoutTheOverloadedKeysDropsItsOldEntry() {
        putOverloadedItems();
        putFeaturedExample();
        QueryResponse electronics = gsi1("GSI1PK = :pk", Map.of(":pk", s("CAT#electronics")), true);
        assertThat(electronics.items()).containsExactly(SPEAKER, TV);
        assertThat(index(describe(), "GSI1").itemCount()).isEqualTo(11);
        assertThat(gsi2Featured(true).items()).containsExactly(keysOnly(FEATURED_HEADPHONES));
    }

    /** The hot-partition fix: GSI1PK STATUS#ACTIVE#<shard>, read back by querying all ten shards. */
    @Test
    void writeShardedStatusIsReadBackFromAllTenShards() {
        int shards = 10;
        List<Map<String, AttributeValue>> written = new ArrayList<>();
        for (int i = 0; i < 47; i++) {
            int shard = (i * 7) % shards; // the seed picks at random; a fixed spread keeps counts exact
            Map<String, AttributeValue> user = item(
                    "PK",
                    s(String.format("USER#%03d", i)),
                    "SK",
                    s("PROFILE"),
                    "GSI1PK",
                    s("STATUS#ACTIVE#" + shard),
                    "GSI1SK",
                    s(String.format("USER#%03d", i)));
            c.putItem(b -> b.tableName(TABLE).item(user));
            written.add(user);
        }
        List<Map<String, AttributeValue>> merged = new ArrayList<>();
        int[] perShard = new int[shards];
        for (int shard = 0; shard < shards; shard++) {
            QueryResponse r = gsi1("GSI1PK = :pk", Map.of(":pk", s("STATUS#ACTIVE#" + shard)), true);
            perShard[shard] = r.count();
            merged.addAll(r.items());
        }
        assertThat(merged).containsExactlyInAnyOrderElementsOf(written);
        assertThat(perShard).containsExactly(5, 5, 5, 4, 5, 5, 4, 5, 5, 4);
    }

    // ---- code example 5b: a sparse index ----

    /** Code example 5b's two puts, verbatim: a featured product (in GSI2) and a regular one (not). */
    static final Map<String, AttributeValue> FEATURED_HEADPHONES = item(
            "PK",
            s("PROD#001"),
            "SK",
            s("METADATA"),
            "name",
            s("高級ヘッドフォン"),
            "price",
            Fixtures.n(29900),
            "GSI2PK",
            s("FEATURED"),
            "GSI2SK",
            s("PRICE#000029900"));

    static final Map<String, AttributeValue> REGULAR_EARPHONES =
            item("PK", s("PROD#002"), "SK", s("METADATA"), "name", s("普通のイヤホン"), "price", Fixtures.n(3000));
    static final Map<String, AttributeValue> FEATURED_WATCH = item(
            "PK",
            s("PROD#010"),
            "SK",
            s("METADATA"),
            "name",
            s("スマートウォッチ"),
            "price",
            Fixtures.n(45800),
            "GSI2PK",
            s("FEATURED"),
            "GSI2SK",
            s("PRICE#000045800"));
    static final Map<String, AttributeValue> FEATURED_CABLE = item(
            "PK",
            s("PROD#011"),
            "SK",
            s("METADATA"),
            "name",
            s("USBケーブル"),
            "price",
            Fixtures.n(980),
            "GSI2PK",
            s("FEATURED"),
            "GSI2SK",
            s("PRICE#000000980"));
    static final Map<String, AttributeValue> REGULAR_CASE =
            item("PK", s("PROD#012"), "SK", s("METADATA"), "name", s("ケース"), "price", Fixtures.n(1200));

    private void putFeaturedExample() {
        c.putItem(b -> b.tableName(TABLE).item(FEATURED_HEADPHONES));
        c.putItem(b -> b.tableName(TABLE).item(REGULAR_EARPHONES));
    }

    private void putSparseItems() {
        putFeaturedExample();
        for (Map<String, AttributeValue> i : List.of(FEATURED_WATCH, FEATURED_CABLE, REGULAR_CASE)) {
            c.putItem(b -> b.tableName(TABLE).item(i));
        }
    }

    private QueryResponse gsi2Featured(boolean forward) {
        return c.query(b -> b.tableName(TABLE)
                .indexName("GSI2")
                .keyConditionExpression("GSI2PK = :f")
                .expressionAttributeValues(Map.of(":f", s("FEATURED")))
                .scanIndexForward(forward));
    }

    /** GSI2 is KEYS_ONLY: an entry holds the table key and the index key, nothing else. */
    static Map<String, AttributeValue> keysOnly(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> out = new HashMap<>();
        for (String name : List.of("PK", "SK", "GSI2PK", "GSI2SK")) {
            out.put(name, item.get(name));
        }
        return out;
    }

    /** Code example 5b's query: only featured products, cheapest first (ScanIndexForward=True). */
    @Test
    void sparseIndexQueryReturnsOnlyFeaturedProductsByPrice() {
        putSparseItems();
        QueryResponse r = gsi2Featured(true);
        assertThat(r.items())
                .containsExactly(keysOnly(FEATURED_CABLE), keysOnly(FEATURED_HEADPHONES), keysOnly(FEATURED_WATCH));
        assertThat(r.scannedCount()).isEqualTo(3);
    }

    /** A Scan of the sparse index is the featured products exactly; DescribeTable counts only them. */
    @Test
    void sparseIndexScanAndItemCountHoldOnlyItemsWithTheAttribute() {
        putSparseItems();
        assertThat(scanAll("GSI2"))
                .containsExactlyInAnyOrder(
                        keysOnly(FEATURED_CABLE), keysOnly(FEATURED_HEADPHONES), keysOnly(FEATURED_WATCH));
        TableDescription t = describe();
        assertThat(t.itemCount()).isEqualTo(5);
        assertThat(index(t, "GSI2").itemCount()).isEqualTo(3);
        assertThat(index(t, "GSI2").indexSizeBytes()).isPositive();
        assertThat(index(t, "GSI1").itemCount()).isZero();
        assertThat(index(t, "GSI1").indexSizeBytes()).isZero();
    }

    /** UpdateItem REMOVE of the index key drops the item from the sparse index, and the counts follow. */
    @Test
    void removingTheIndexKeyAttributeDropsTheItemFromTheSparseIndex() {
        putSparseItems();
        TableDescription before = describe();
        c.updateItem(
                b -> b.tableName(TABLE).key(key("PROD#001", "METADATA")).updateExpression("REMOVE GSI2PK, GSI2SK"));
        assertThat(gsi2Featured(true).items()).containsExactly(keysOnly(FEATURED_CABLE), keysOnly(FEATURED_WATCH));
        assertThat(scanAll("GSI2")).containsExactlyInAnyOrder(keysOnly(FEATURED_CABLE), keysOnly(FEATURED_WATCH));
        TableDescription after = describe();
        assertThat(index(after, "GSI2").itemCount()).isEqualTo(2);
        assertThat(index(after, "GSI2").indexSizeBytes())
                .isLessThan(index(before, "GSI2").indexSizeBytes());
        assertThat(after.itemCount()).isEqualTo(5);
    }

    /** Removing just one of the two index key attributes is enough: an entry needs all of them. */
    @Test
    void removingOnlyTheIndexSortKeyAlsoDropsTheItem() {
        putSparseItems();
        c.updateItem(b -> b.tableName(TABLE).key(key("PROD#010", "METADATA")).updateExpression("REMOVE GSI2SK"));
        assertThat(gsi2Featured(true).items()).containsExactly(keysOnly(FEATURED_CABLE), keysOnly(FEATURED_HEADPHONES));
        assertThat(index(describe(), "GSI2").itemCount()).isEqualTo(2);
    }

    /** UpdateItem SET of both index keys adds the item at its place in the index order; one alone does not. */
    @Test
    void addingTheIndexKeyAttributesAddsTheItemToTheSparseIndex() {
        putSparseItems();
        c.updateItem(b -> b.tableName(TABLE)
                .key(key("PROD#012", "METADATA"))
                .updateExpression("SET GSI2PK = :f")
                .expressionAttributeValues(Map.of(":f", s("FEATURED"))));
        assertThat(index(describe(), "GSI2").itemCount()).isEqualTo(3);
        TableDescription before = describe();
        c.updateItem(b -> b.tableName(TABLE)
                .key(key("PROD#002", "METADATA"))
                .updateExpression("SET GSI2PK = :f, GSI2SK = :p")
                .expressionAttributeValues(Map.of(":f", s("FEATURED"), ":p", s("PRICE#000003000"))));
        Map<String, AttributeValue> promoted = new HashMap<>(REGULAR_EARPHONES);
        promoted.put("GSI2PK", s("FEATURED"));
        promoted.put("GSI2SK", s("PRICE#000003000"));
        assertThat(gsi2Featured(false).items())
                .containsExactly(
                        keysOnly(FEATURED_WATCH),
                        keysOnly(FEATURED_HEADPHONES),
                        keysOnly(promoted),
                        keysOnly(FEATURED_CABLE));
        TableDescription after = describe();
        assertThat(index(after, "GSI2").itemCount()).isEqualTo(4);
        assertThat(index(after, "GSI2").indexSizeBytes())
                .isGreaterThan(index(before, "GSI2").indexSizeBytes());
    }

    private List<Map<String, AttributeValue>> scanAll(String indexName) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r =
                    c.scan(b -> b.tableName(TABLE).indexName(indexName).limit(4).exclusiveStartKey(from));
            out.addAll(r.items());
            start = r.lastEvaluatedKey().isEmpty() ? null : r.lastEvaluatedKey();
        } while (start != null);
        return out;
    }

    private TableDescription describe() {
        return c.describeTable(b -> b.tableName(TABLE)).table();
    }
}
