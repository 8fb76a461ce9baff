package dev.kumiko.server.reads;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/** Scan through the SDK: paging, filters, Select COUNT, parallel segments, errors. */
class ScanTest {
    static TestServer server;
    static DynamoDbClient c;
    static final String TABLE = "scans";
    static final int ITEMS = 200;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, TABLE);
        Fixtures.createTable(c, "other");
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int n = 0; n < ITEMS; n++) {
            items.add(Map.of(
                    "PK",
                    s("P" + (n % 37)),
                    "SK",
                    s("S" + n),
                    "n",
                    AttributeValue.builder().n(Integer.toString(n)).build()));
        }
        Fixtures.putAll(c, TABLE, items);
        c.putItem(b -> b.tableName("other").item(Map.of("PK", s("x"), "SK", s("y"))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<String> ids(ScanResponse r) {
        List<String> out = new ArrayList<>();
        r.items().forEach(i -> out.add(i.get("PK").s() + "/" + i.get("SK").s()));
        return out;
    }

    @Test
    void wholeTableInPages() {
        List<String> all = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r = c.scan(b -> b.tableName(TABLE).limit(33).exclusiveStartKey(from));
            assertThat(r.scannedCount()).isLessThanOrEqualTo(33);
            all.addAll(ids(r));
            start = r.lastEvaluatedKey().isEmpty() ? null : r.lastEvaluatedKey();
        } while (start != null);
        assertThat(all).hasSize(ITEMS).doesNotHaveDuplicates();
    }

    @ParameterizedTest
    // 300: more segments than items (most segments are empty), at a third of the calls of 1000.
    @ValueSource(ints = {1, 2, 3, 7, 64, 300})
    void segmentsReturnEveryItemExactlyOnce(int totalSegments) {
        List<String> all = new ArrayList<>();
        for (int seg = 0; seg < totalSegments; seg++) {
            int segment = seg;
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                ScanResponse r = c.scan(b -> b.tableName(TABLE)
                        .segment(segment)
                        .totalSegments(totalSegments)
                        .limit(50)
                        .exclusiveStartKey(from));
                all.addAll(ids(r));
                start = r.lastEvaluatedKey().isEmpty() ? null : r.lastEvaluatedKey();
            } while (start != null);
        }
        assertThat(all).hasSize(ITEMS).doesNotHaveDuplicates();
    }

    @Test
    void filterAndCount() {
        ScanResponse r = c.scan(b -> b.tableName(TABLE)
                .filterExpression("n < :m")
                .expressionAttributeValues(
                        Map.of(":m", AttributeValue.builder().n("10").build()))
                .select(Select.COUNT));
        assertThat(r.count()).isEqualTo(10);
        assertThat(r.scannedCount()).isEqualTo(ITEMS);
        assertThat(r.hasItems()).isFalse();
        ScanResponse keys = c.scan(b -> b.tableName(TABLE)
                .filterExpression("PK = :p")
                .expressionAttributeValues(Map.of(":p", s("P3")))
                .projectionExpression("SK"));
        assertThat(keys.items())
                .allMatch(i -> i.keySet().equals(java.util.Set.of("SK")))
                .isNotEmpty();
    }

    @Test
    void segmentErrors() {
        expectError(
                b -> b.segment(1),
                "The TotalSegments parameter is required but was not present in the "
                        + "request when Segment parameter is present");
        expectError(
                b -> b.totalSegments(2),
                "The Segment parameter is required but was not present in the "
                        + "request when parameter TotalSegments is present");
        expectError(
                b -> b.segment(2).totalSegments(2),
                "The Segment parameter is zero-based and must be less "
                        + "than parameter TotalSegments: Segment: 2 is not less than TotalSegments: 2");
        expectError(
                b -> b.segment(0).totalSegments(1000001),
                "1 validation error detected: Value '1000001' at "
                        + "'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000");
        expectError(
                b -> b.limit(0),
                "1 validation error detected: Value '0' at 'limit' failed to satisfy "
                        + "constraint: Member must have value greater than or equal to 1");
        expectError(
                b -> b.exclusiveStartKey(Map.of("PK", s("a"), "SK", s("b"), "x", s("c"))),
                "The provided starting key is invalid: The provided key element does not match the schema");
        Map<String, AttributeValue> seg0 = c.scan(
                        b -> b.tableName(TABLE).segment(0).totalSegments(2).limit(1))
                .lastEvaluatedKey();
        expectError(
                b -> b.segment(1).totalSegments(2).exclusiveStartKey(seg0),
                "The provided starting key is "
                        + "invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. "
                        + "TotalSegments: 2 Segment: 1");
    }

    private static void expectError(java.util.function.Consumer<ScanRequest.Builder> request, String message) {
        assertThatThrownBy(() -> c.scan(b -> request.accept(b.tableName(TABLE))))
                .isInstanceOf(DynamoDbException.class)
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorMessage())
                        .isEqualTo(message));
    }
}
