package dev.kumiko.server.protocol;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** Behaviours where code that works on DynamoDB used to fail on Kumiko. */
class FidelityBehaviourTest {
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, "fbt");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static AttributeValue b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return AttributeValue.builder().b(SdkBytes.fromByteArray(out)).build();
    }

    private static Map<String, Condition> pkEquals(String pk) {
        return Map.of(
                "PK",
                Condition.builder()
                        .comparisonOperator(ComparisonOperator.EQ)
                        .attributeValueList(s(pk))
                        .build());
    }

    @Test
    void keyConditionsMixWithFilterAndProjectionExpressions() {
        c.putItem(b -> b.tableName("fbt").item(Map.of("PK", s("kc"), "SK", s("1"), "v", n("1"), "w", s("x"))));
        c.putItem(b -> b.tableName("fbt").item(Map.of("PK", s("kc"), "SK", s("2"), "v", n("2"), "w", s("y"))));
        var page = c.query(b -> b.tableName("fbt")
                .keyConditions(pkEquals("kc"))
                .filterExpression("v > :one")
                .projectionExpression("#w")
                .expressionAttributeNames(Map.of("#w", "w"))
                .expressionAttributeValues(Map.of(":one", n("1"))));
        assertThat(page.items()).containsExactly(Map.of("w", s("y")));
        assertThat(page.scannedCount()).isEqualTo(2);
    }

    @Test
    void keyConditionsBesideKeyConditionExpressionIsStillRefused() {
        assertValidation(
                () -> c.query(b -> b.tableName("fbt")
                        .keyConditions(pkEquals("kc"))
                        .keyConditionExpression("PK = :p")
                        .expressionAttributeValues(Map.of(":p", s("kc")))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}");
    }

    @Test
    void binaryContainsMatchesBytesInside() {
        c.putItem(b -> b.tableName("fbt").item(Map.of("PK", s("bin"), "SK", s("1"), "data", b(1, 2, 3, 4))));
        var key = Map.of("PK", s("bin"), "SK", s("1"));
        for (AttributeValue operand : List.of(b(2, 3), b(1, 2, 3, 4), b(4))) {
            var got = c.query(b -> b.tableName("fbt")
                    .keyConditionExpression("PK = :p")
                    .filterExpression("contains(#d, :x)")
                    .expressionAttributeNames(Map.of("#d", "data"))
                    .expressionAttributeValues(Map.of(":p", s("bin"), ":x", operand)));
            assertThat(got.count()).as("contains %s", operand).isEqualTo(1);
        }
        var none = c.query(b -> b.tableName("fbt")
                .keyConditionExpression("PK = :p")
                .filterExpression("contains(#d, :x)")
                .expressionAttributeNames(Map.of("#d", "data"))
                .expressionAttributeValues(Map.of(":p", s("bin"), ":x", b(3, 2))));
        assertThat(none.count()).isZero();
        var legacy = c.query(b -> b.tableName("fbt")
                .keyConditions(pkEquals("bin"))
                .queryFilter(Map.of(
                        "data",
                        Condition.builder()
                                .comparisonOperator(ComparisonOperator.CONTAINS)
                                .attributeValueList(b(3, 4))
                                .build())));
        assertThat(legacy.count()).isEqualTo(1);
        var notContains = c.query(b -> b.tableName("fbt")
                .keyConditions(pkEquals("bin"))
                .queryFilter(Map.of(
                        "data",
                        Condition.builder()
                                .comparisonOperator(ComparisonOperator.NOT_CONTAINS)
                                .attributeValueList(b(3, 4))
                                .build())));
        assertThat(notContains.count()).isZero();
        assertThat(c.getItem(b -> b.tableName("fbt").key(key)).item()).containsKey("data");
    }

    @Test
    void sizeOfStringCountsCharacters() {
        c.putItem(b -> b.tableName("fbt").item(Map.of("PK", s("size"), "SK", s("1"), "t", s("h\u00e9llo"))));
        var got = c.query(b -> b.tableName("fbt")
                .keyConditionExpression("PK = :p")
                .filterExpression("size(t) = :n")
                .expressionAttributeValues(Map.of(":p", s("size"), ":n", n("5"))));
        assertThat(got.count()).isEqualTo(1);
    }

    @Test
    void emptyAttributeUpdatesCreatesTheItemFromItsKey() {
        var key = Map.of("PK", s("au"), "SK", s("1"));
        var out = c.updateItem(
                b -> b.tableName("fbt").key(key).attributeUpdates(Map.of()).returnValues(ReturnValue.ALL_NEW));
        assertThat(out.attributes()).isEqualTo(key);
        assertThat(c.getItem(b -> b.tableName("fbt").key(key).consistentRead(true))
                        .item())
                .isEqualTo(key);
    }

    @Test
    void removingANestedPathOfAMissingItemIsANoOp() {
        var key = Map.of("PK", s("rm"), "SK", s("1"));
        var out = c.updateItem(b ->
                b.tableName("fbt").key(key).updateExpression("REMOVE a.b, c[1]").returnValues(ReturnValue.ALL_NEW));
        assertThat(out.hasAttributes()).isFalse();
        assertThat(c.getItem(b -> b.tableName("fbt").key(key).consistentRead(true))
                        .hasItem())
                .isFalse();
    }

    @Test
    void parenthesisedUpdateValuesAsElectroDbSendsThem() {
        var key = Map.of("PK", s("paren"), "SK", s("1"));
        c.updateItem(b -> b.tableName("fbt")
                .key(key)
                .updateExpression("SET #x = (if_not_exists(#x, :d) - :v)")
                .expressionAttributeNames(Map.of("#x", "x"))
                .expressionAttributeValues(Map.of(":d", n("10"), ":v", n("3"))));
        c.updateItem(b -> b.tableName("fbt")
                .key(key)
                .updateExpression("SET #x = (#x + (:v)), y = (:v)")
                .expressionAttributeNames(Map.of("#x", "x"))
                .expressionAttributeValues(Map.of(":v", n("3"))));
        var got =
                c.getItem(b -> b.tableName("fbt").key(key).consistentRead(true)).item();
        assertThat(got).containsEntry("x", n("10")).containsEntry("y", n("3"));
    }

    @Test
    void setOnANestedPathWithoutParentHasDynamoDbsBareMessage() {
        var key = Map.of("PK", s("nest"), "SK", s("1"));
        c.putItem(b -> b.tableName("fbt").item(key));
        assertValidation(
                () -> c.updateItem(b -> b.tableName("fbt")
                        .key(key)
                        .updateExpression("SET a.b = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))),
                "The document path provided in the update expression is invalid for update");
    }

    private static void putSized(String pk, String sk, int stringLength) {
        c.putItem(b -> b.tableName("fbt").item(Map.of("PK", s(pk), "SK", s(sk), "data", s("x".repeat(stringLength)))));
    }

    /**
     * DynamoDB stops a page once the data it scanned exceeds 1 MB ("If the total size of scanned
     * items exceeds the maximum dataset size limit of 1 MB, the scan completes", API_Scan), so the
     * item that crosses the limit is on the page: three items just under 1 MB and a fourth that
     * crosses it make one page of four, with LastEvaluatedKey at the fourth.
     */
    @Test
    void theItemThatCrossesOneMegabyteEndsThePage() {
        // Each item: "PK"+"cross" + "SK"+"kN" + "data"+L = 15+L bytes; three make 1 MB less 1,000.
        int justUnder = (1024 * 1024 - 1_000) / 3 - 15;
        for (int i = 1; i <= 3; i++) {
            putSized("cross", "k" + i, justUnder);
        }
        putSized("cross", "k4", 2_000);
        putSized("cross", "k5", 10);
        var page = c.query(b -> b.tableName("fbt")
                .keyConditionExpression("PK = :p")
                .expressionAttributeValues(Map.of(":p", s("cross"))));
        assertThat(page.count()).isEqualTo(4);
        assertThat(page.lastEvaluatedKey()).isEqualTo(Map.of("PK", s("cross"), "SK", s("k4")));
        var rest = c.query(b -> b.tableName("fbt")
                .keyConditionExpression("PK = :p")
                .expressionAttributeValues(Map.of(":p", s("cross")))
                .exclusiveStartKey(page.lastEvaluatedKey()));
        assertThat(rest.items()).extracting(i -> i.get("SK").s()).containsExactly("k5");
        assertThat(rest.lastEvaluatedKey()).isEmpty();

        // Scan pages the same way.
        Fixtures.createTable(c, "fbt_scan_page");
        for (int i = 1; i <= 3; i++) {
            String sk = "k" + i;
            c.putItem(b -> b.tableName("fbt_scan_page")
                    .item(Map.of("PK", s("cross"), "SK", s(sk), "data", s("x".repeat(justUnder)))));
        }
        c.putItem(b -> b.tableName("fbt_scan_page")
                .item(Map.of("PK", s("cross"), "SK", s("k4"), "data", s("x".repeat(2_000)))));
        var scanned = c.scan(b -> b.tableName("fbt_scan_page"));
        assertThat(scanned.scannedCount()).isEqualTo(4);
        assertThat(scanned.lastEvaluatedKey()).isEqualTo(Map.of("PK", s("cross"), "SK", s("k4")));
    }

    @Test
    void reachingOneMegabyteExactlySetsLastEvaluatedKey() {
        // Each item: "PK"+"exact" + "SK"+"kN" + "data"+L = 2+5+2+2+4+L bytes; four make 1 MB exactly.
        int length = 1024 * 1024 / 4 - 15;
        for (int i = 1; i <= 4; i++) {
            putSized("exact", "k" + i, length);
        }
        var page = c.query(b -> b.tableName("fbt")
                .keyConditionExpression("PK = :p")
                .expressionAttributeValues(Map.of(":p", s("exact"))));
        assertThat(page.count()).isEqualTo(4);
        assertThat(page.lastEvaluatedKey()).isEqualTo(Map.of("PK", s("exact"), "SK", s("k4")));
    }
}
