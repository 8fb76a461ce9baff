package dev.kumiko.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.CountingStore;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.ProjectionInput;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Query of a GSI reads only the index entries it returns, whatever the size of the index
 * partition, also with multi-attribute keys and across pages.
 */
class IndexQueryRangeTest {
    private static final int MATCHES_PER_ROUND = 40;
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
                                "matches",
                                List.of(def("id"), def("tournament"), def("area"), def("round"), def("bracket")),
                                List.of(new KeySchemaInput("id", KeyType.HASH)),
                                null,
                                List.of(new IndexInput(
                                        "byPlace",
                                        List.of(
                                                new KeySchemaInput("tournament", KeyType.HASH),
                                                new KeySchemaInput("area", KeyType.HASH),
                                                new KeySchemaInput("round", KeyType.RANGE),
                                                new KeySchemaInput("bracket", KeyType.RANGE)),
                                        new ProjectionInput(ProjectionType.KEYS_ONLY, null),
                                        null)),
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
        int id = 0;
        for (String area : List.of("EU", "NA")) {
            for (String round : List.of("R1", "R2", "R3")) {
                for (int b = 0; b < MATCHES_PER_ROUND; b++) {
                    put("m" + id++, "T", area, round, String.format("B%03d", b));
                }
            }
        }
    }

    private static AttributeDefinitionInput def(String name) {
        return new AttributeDefinitionInput(name, ScalarAttributeType.S);
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    private void put(String id, String tournament, String area, String round, String bracket) {
        engine.items()
                .putItem(new ItemRequests.PutItem(
                        "matches",
                        Map.of(
                                "id",
                                s(id),
                                "tournament",
                                s(tournament),
                                "area",
                                s(area),
                                "round",
                                s(round),
                                "bracket",
                                s(bracket)),
                        null,
                        null,
                        null,
                        null,
                        ItemRequests.Conditions.NONE));
    }

    private static AttributeValue s(String v) {
        return new AttributeValue.S(v);
    }

    @Test
    void readsOnlyTheEntriesOfOnePartitionAndSortPrefix() {
        store.reset();
        ReadResult r = engine.reads()
                .query(query(
                        "tournament = :t AND area = :r AND round = :o " + "AND bracket BETWEEN :a AND :b",
                        Map.of(":t", s("T"), ":r", s("NA"), ":o", s("R2"), ":a", s("B010"), ":b", s("B019")),
                        null,
                        null));
        assertThat(r.count()).isEqualTo(10);
        assertThat(store.entriesScanned.get()).isEqualTo(10);
        assertThat(r.items())
                .extracting(i -> ((AttributeValue.S) i.get("bracket")).value())
                .containsExactly("B010", "B011", "B012", "B013", "B014", "B015", "B016", "B017", "B018", "B019");
    }

    @Test
    void pagesReadLimitEntriesEachAndCoverThePartitionOnce() {
        List<String> seen = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            store.reset();
            ReadResult r = engine.reads()
                    .query(query("tournament = :t AND area = :r", Map.of(":t", s("T"), ":r", s("EU")), start, 7L));
            assertThat(store.entriesScanned.get()).isLessThanOrEqualTo(7);
            r.items()
                    .forEach(i -> seen.add(((AttributeValue.S) i.get("round")).value() + "/"
                            + ((AttributeValue.S) i.get("bracket")).value()));
            start = r.lastEvaluatedKey();
        } while (start != null);
        assertThat(seen).hasSize(3 * MATCHES_PER_ROUND).doesNotHaveDuplicates();
        List<String> sorted = new ArrayList<>(seen);
        sorted.sort(null);
        assertThat(seen).isEqualTo(sorted);
    }

    private static ReadRequests.Query query(
            String kce, Map<String, AttributeValue> values, Map<String, AttributeValue> start, Long limit) {
        return new ReadRequests.Query(
                new ReadRequests.Common(
                        "matches", "byPlace", null, limit, null, start, null, null, null, null, values, null, null,
                        null),
                kce,
                null,
                true);
    }
}
