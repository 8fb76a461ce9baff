package dev.kumiko.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.CountingStore;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A Query reads only the store entries its key condition matches: O(k), not O(partition). */
class QueryRangeTest {
    private CountingStore store;
    private Engine engine;

    @BeforeEach
    void setUp() {
        store = new CountingStore(new MemoryStore());
        engine = Engine.open(store);
        engine.control()
                .createTable(
                        new RequestContext("us-east-1"),
                        new CreateTableRequest(
                                "ttt",
                                List.of(
                                        new CreateTableRequest.AttributeDefinitionInput("PK", ScalarAttributeType.S),
                                        new CreateTableRequest.AttributeDefinitionInput("SK", ScalarAttributeType.S)),
                                List.of(
                                        new CreateTableRequest.KeySchemaInput("PK", KeyType.HASH),
                                        new CreateTableRequest.KeySchemaInput("SK", KeyType.RANGE)),
                                null,
                                null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
        for (String pk : List.of("A", "B", "C")) {
            for (int i = 0; i < 100; i++) {
                put(pk, String.format("MESSAGE#%03d", i));
                put(pk, String.format("META#%03d", i));
            }
            put(pk, "M");
            put(pk, "MESSAGE");
            put(pk, "MESSAGE#");
        }
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    private void put(String pk, String sk) {
        engine.items()
                .putItem(new ItemRequests.PutItem(
                        "ttt", Map.of("PK", s(pk), "SK", s(sk)), null, null, null, null, ItemRequests.Conditions.NONE));
    }

    private static AttributeValue s(String v) {
        return new AttributeValue.S(v);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SK = :a| MESSAGE#050| | 1",
                "SK < :a| MESSAGE#000| | 3",
                "SK <= :a| MESSAGE#000| | 4",
                "SK > :a| META#090| | 9",
                "SK >= :a| META#090| | 10",
                "SK BETWEEN :a AND :b| MESSAGE#010| MESSAGE#019| 10",
                "begins_with(SK, :a)| MESSAGE#| | 101",
                "begins_with(SK, :a)| MESSAGE#05| | 10",
                "begins_with(SK, :a)| META| | 100",
                "begins_with(SK, :a)| Z| | 0",
            })
    void readsOnlyTheMatchingEntries(String condition, String a, String b, int expected) {
        Map<String, AttributeValue> values =
                b == null ? Map.of(":p", s("B"), ":a", s(a)) : Map.of(":p", s("B"), ":a", s(a), ":b", s(b));
        store.reset();
        ReadResult r = engine.reads().query(query("PK = :p AND " + condition, values, null, true));
        assertThat(r.count()).isEqualTo(expected);
        assertThat(store.entriesScanned.get()).isEqualTo(expected);
        for (Map<String, AttributeValue> item : r.items()) {
            assertThat(item.get("PK")).isEqualTo(s("B"));
        }
    }

    @ParameterizedTest
    @CsvSource({"true", "false"})
    void limitReadsLimitEntriesAndPagesInOrder(boolean forward) {
        List<String> seen = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            store.reset();
            ReadResult r = engine.reads()
                    .query(query(
                            "PK = :p AND begins_with(SK, :a)",
                            Map.of(":p", s("A"), ":a", s("MESSAGE#")),
                            start,
                            forward,
                            7L));
            assertThat(store.entriesScanned.get()).isLessThanOrEqualTo(7);
            r.items().forEach(i -> seen.add(((AttributeValue.S) i.get("SK")).value()));
            start = r.lastEvaluatedKey();
        } while (start != null);
        assertThat(seen).hasSize(101);
        List<String> sorted = new ArrayList<>(seen);
        sorted.sort(forward ? null : java.util.Comparator.reverseOrder());
        assertThat(seen).isEqualTo(sorted);
    }

    private static ReadRequests.Query query(
            String kce, Map<String, AttributeValue> values, Map<String, AttributeValue> start, boolean forward) {
        return query(kce, values, start, forward, null);
    }

    private static ReadRequests.Query query(
            String kce,
            Map<String, AttributeValue> values,
            Map<String, AttributeValue> start,
            boolean forward,
            Long limit) {
        return new ReadRequests.Query(
                new ReadRequests.Common(
                        "ttt", null, null, limit, null, start, null, null, null, null, values, null, null, null),
                kce,
                null,
                forward);
    }

    static AttributeValue n(String v) {
        return new AttributeValue.N(DynamoNumber.parse(v));
    }
}
