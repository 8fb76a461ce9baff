package dev.kumiko.engine.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.engine.item.BatchResults;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The size limits of reads: a 1 MB Query/Scan page and a 16 MB BatchGetItem response. */
@Tag("slow")
class PageLimitsTest {
    private static final int ITEMS = 45;
    private static final String BIG = "x".repeat(390 * 1024);
    private Engine engine;

    @BeforeEach
    void setUp() {
        engine = Engine.inMemory();
        engine.control()
                .createTable(
                        new RequestContext("us-east-1"),
                        new CreateTableRequest(
                                "big",
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
        for (int i = 0; i < ITEMS; i++) {
            engine.items()
                    .putItem(new ItemRequests.PutItem(
                            "big",
                            Map.of("PK", s("P"), "SK", s(sk(i)), "v", s(BIG)),
                            null,
                            null,
                            null,
                            null,
                            ItemRequests.Conditions.NONE));
        }
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    private static String sk(int i) {
        return String.format("%02d", i);
    }

    private static AttributeValue s(String v) {
        return new AttributeValue.S(v);
    }

    @Test
    void queryPageStopsAtOneMegabyteAndPagesOn() {
        int total = 0;
        int pages = 0;
        Map<String, AttributeValue> start = null;
        do {
            ReadResult r = engine.reads()
                    .query(new ReadRequests.Query(
                            new ReadRequests.Common(
                                    "big",
                                    null,
                                    null,
                                    null,
                                    null,
                                    start,
                                    null,
                                    null,
                                    null,
                                    null,
                                    Map.of(":p", s("P")),
                                    null,
                                    null,
                                    null),
                            "PK = :p",
                            null,
                            true));
            // Two 390 KB items stay under 1 MB; the third crosses it and ends the page.
            assertThat(r.scannedCount()).isLessThanOrEqualTo(3);
            total += r.count();
            pages++;
            start = r.lastEvaluatedKey();
        } while (start != null);
        assertThat(total).isEqualTo(ITEMS);
        // 15 pages of three, each stopped by the size limit (the last one too: the read cannot
        // know nothing follows), then an empty page without LastEvaluatedKey.
        assertThat(pages).isEqualTo(16);
    }

    @Test
    void batchGetReturnsTheRestAsUnprocessedKeysPastSixteenMegabytes() {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            keys.add(Map.of("PK", s("P"), "SK", s(sk(i))));
        }
        BatchResults.BatchGet r = engine.items()
                .batchGetItem(new BatchRequests.BatchGet(
                        Map.of("big", new BatchRequests.KeysAndAttributes(keys, null, null, null, null)), null));
        int returned = r.responses().get("big").size();
        assertThat(returned).isBetween(40, 43);
        assertThat(r.unprocessedKeys().get("big").keys()).hasSize(ITEMS - returned);
        assertThat(r.unprocessedKeys().get("big").keys()).isEqualTo(keys.subList(returned, ITEMS));
    }
}
