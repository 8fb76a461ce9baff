package dev.kumiko.server.limits;

import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.TestServer;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A memory store with a small budget of heap, filled through the SDK until it refuses writes: the
 * refusal is DynamoDB's InternalServerError with a message that says why, nothing of a refused
 * request is applied, reads and deletes go on, and deletes make room for writes again.
 */
class MemoryBoundTest {
    private static final long BUDGET_BYTES = 2L << 20;
    private static final int PAYLOAD_CHARS = 8_000;
    /** Far more items of PAYLOAD_CHARS than BUDGET_BYTES holds: the fill ends by refusal, not here. */
    private static final int ITEMS_MAX = 2_000;

    private static final int PARTITIONS = 4;
    private static final String TABLE = "memory";

    private static Map<String, AttributeValue> item(int i, char fill) {
        return Map.of(
                "PK",
                s("p" + i % PARTITIONS),
                "SK",
                s(String.format("i%05d", i)),
                "payload",
                s(String.valueOf(fill).repeat(PAYLOAD_CHARS)));
    }

    private static Map<String, AttributeValue> key(int i) {
        return Map.of("PK", s("p" + i % PARTITIONS), "SK", s(String.format("i%05d", i)));
    }

    /** PutItem of items 0, 1, ... until the store refuses one; returns how many it took. */
    private static int fill(DynamoDbClient c, String table) {
        for (int i = 0; i < ITEMS_MAX; i++) {
            try {
                int at = i;
                c.putItem(b -> b.tableName(table).item(item(at, 'x')));
            } catch (InternalServerErrorException e) {
                assertFullRefusal(e);
                return i;
            }
        }
        throw new AssertionError("a store of " + BUDGET_BYTES + " bytes took " + ITEMS_MAX + " items");
    }

    private static void assertFullRefusal(Throwable t) {
        assertThat(t).isInstanceOfSatisfying(InternalServerErrorException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(500);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InternalServerError");
            assertThat(e.awsErrorDetails().errorMessage())
                    .startsWith("Kumiko's in-memory store is full: ")
                    .contains("Reads and deletes still work");
        });
    }

    private static boolean present(DynamoDbClient c, int i) {
        return c.getItem(b -> b.tableName(TABLE).key(key(i)).consistentRead(true))
                .hasItem();
    }

    @Test
    void aFullStoreRefusesWritesWholeAndGoesOnServingReadsAndDeletes() {
        try (TestServer server = TestServer.start(new MemoryStore(BUDGET_BYTES), ServerLimits.DEFAULTS)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, TABLE);
            int stored = fill(c, TABLE);
            assertThat(stored).isGreaterThan(100);
            int next = stored;

            // Refused again, and nothing of the refused requests is there.
            assertThatThrownBy(() -> c.putItem(b -> b.tableName(TABLE).item(item(next, 'y'))))
                    .satisfies(MemoryBoundTest::assertFullRefusal);
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = next; i < next + Fixtures.BATCH_WRITE_ITEMS_MAX; i++) {
                Map<String, AttributeValue> it = item(i, 'y');
                batch.add(WriteRequest.builder().putRequest(p -> p.item(it)).build());
            }
            assertThatThrownBy(() -> c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch))))
                    .satisfies(MemoryBoundTest::assertFullRefusal);
            // A transaction that deletes one item and puts three: the delete alone would fit, the whole does not.
            assertThatThrownBy(() -> c.transactWriteItems(b -> b.transactItems(
                            TransactWriteItem.builder()
                                    .delete(d -> d.tableName(TABLE).key(key(0)))
                                    .build(),
                            TransactWriteItem.builder()
                                    .put(p -> p.tableName(TABLE).item(item(next, 'y')))
                                    .build(),
                            TransactWriteItem.builder()
                                    .put(p -> p.tableName(TABLE).item(item(next + 1, 'y')))
                                    .build(),
                            TransactWriteItem.builder()
                                    .put(p -> p.tableName(TABLE).item(item(next + 2, 'y')))
                                    .build())))
                    .satisfies(MemoryBoundTest::assertFullRefusal);
            assertThat(present(c, 0)).isTrue();
            for (int i = next; i < next + Fixtures.BATCH_WRITE_ITEMS_MAX; i++) {
                assertThat(present(c, i)).as("item %d of a refused request", i).isFalse();
            }

            // Reads go on: every stored item, by GetItem and by Query.
            assertThat(c.getItem(b -> b.tableName(TABLE).key(key(1))).item()).isEqualTo(item(1, 'x'));
            int inP0 = (stored + PARTITIONS - 1) / PARTITIONS;
            assertThat(c.query(b -> b.tableName(TABLE)
                                    .keyConditionExpression("PK = :p")
                                    .expressionAttributeValues(Map.of(":p", s("p0")))
                                    .select("COUNT"))
                            .count())
                    .isEqualTo(inP0);

            // An overwrite that does not grow the data goes on.
            c.putItem(b -> b.tableName(TABLE).item(item(2, 'z')));
            assertThat(c.getItem(b -> b.tableName(TABLE).key(key(2))).item()).isEqualTo(item(2, 'z'));

            // Deletes go on, and make room.
            for (int i = 0; i < stored / 2; i++) {
                int at = i;
                c.deleteItem(b -> b.tableName(TABLE).key(key(at)));
            }
            assertThat(present(c, 0)).isFalse();
            for (int i = next; i < next + 10; i++) {
                int at = i;
                c.putItem(b -> b.tableName(TABLE).item(item(at, 'w')));
            }
            assertThat(c.getItem(b -> b.tableName(TABLE).key(key(next + 9))).item())
                    .isEqualTo(item(next + 9, 'w'));
        }
    }

    /**
     * With throughput enforced (here by the table's tag) BatchWriteItem commits item by item, so that
     * throttled items can be handed back; a store that fills part-way hands back the rest the same way.
     */
    @Test
    void aBatchWriteThatFillsTheStorePartWayHandsBackTheRestAsUnprocessed() {
        try (TestServer server = TestServer.start(new MemoryStore(BUDGET_BYTES), ServerLimits.DEFAULTS)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, TABLE);
            c.tagResource(b -> b.resourceArn(
                            c.describeTable(d -> d.tableName(TABLE)).table().tableArn())
                    .tags(t -> t.key("kumiko:throttling").value("on")));
            int stored = fill(c, TABLE);
            for (int i = 0; i < 3; i++) {
                int at = i;
                c.deleteItem(b -> b.tableName(TABLE).key(key(at)));
            }
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = stored; i < stored + Fixtures.BATCH_WRITE_ITEMS_MAX; i++) {
                Map<String, AttributeValue> it = item(i, 'y');
                batch.add(WriteRequest.builder().putRequest(p -> p.item(it)).build());
            }
            List<WriteRequest> unprocessed = c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch)))
                    .unprocessedItems()
                    .get(TABLE);
            // Room for three items was made: about three are written, the rest handed back.
            assertThat(unprocessed)
                    .hasSizeBetween(Fixtures.BATCH_WRITE_ITEMS_MAX - 6, Fixtures.BATCH_WRITE_ITEMS_MAX - 1);
            int written = Fixtures.BATCH_WRITE_ITEMS_MAX - unprocessed.size();
            for (int i = stored; i < stored + Fixtures.BATCH_WRITE_ITEMS_MAX; i++) {
                assertThat(present(c, i)).as("item %d", i).isEqualTo(i < stored + written);
            }
            assertThat(unprocessed.get(0).putRequest().item()).isEqualTo(item(stored + written, 'y'));
            // Full again: a batch whose first write does not fit fails whole, as a PutItem does.
            assertThatThrownBy(() -> c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, unprocessed))))
                    .satisfies(MemoryBoundTest::assertFullRefusal);
        }
    }

    @Test
    void deletesGoOnOnAFullStoreWhenTheTableHasAStream() {
        try (TestServer server = TestServer.start(new MemoryStore(BUDGET_BYTES), ServerLimits.DEFAULTS)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, TABLE);
            c.updateTable(b -> b.tableName(TABLE)
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
            int stored = fill(c, TABLE);
            // Each delete frees its item and writes a change record with the old image.
            for (int i = 0; i < stored; i++) {
                int at = i;
                c.deleteItem(b -> b.tableName(TABLE).key(key(at)));
            }
            assertThat(c.scan(b -> b.tableName(TABLE).select("COUNT")).count()).isZero();
        }
    }
}
