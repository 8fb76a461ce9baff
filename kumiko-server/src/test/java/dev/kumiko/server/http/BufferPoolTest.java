package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Requests and answers larger than one chunk of the buffer pool, which are allocated outside it. */
class BufferPoolTest {
    private static final String TABLE = "pool";
    private static final int ITEMS = 4;
    /** Base64 makes each item's value about 510 KB on the wire: four are twice a pool chunk. */
    private static final int VALUE_BYTES = 380 * 1024;

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        Fixtures.createTable(server.client(), TABLE);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, AttributeValue> key(int i) {
        return Map.of("PK", AttributeValue.fromS("p"), "SK", AttributeValue.fromS("s" + i));
    }

    @Test
    void aRequestAndAnAnswerLargerThanAChunkArriveWhole() {
        int chunkBytes = BufferPool.SHARED.metric().chunkSize();
        assertThat(chunkBytes).isEqualTo(1 << 20);
        Random random = new Random(7);
        List<byte[]> values = new ArrayList<>();
        List<WriteRequest> puts = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            byte[] value = new byte[VALUE_BYTES];
            random.nextBytes(value);
            values.add(value);
            Map<String, AttributeValue> item = new java.util.HashMap<>(key(i));
            item.put("v", AttributeValue.fromB(SdkBytes.fromByteArray(value)));
            puts.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item).build())
                    .build());
        }
        BatchWriteItemResponse written = server.client().batchWriteItem(b -> b.requestItems(Map.of(TABLE, puts)));
        assertThat(written.unprocessedItems()).isEmpty();

        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            keys.add(key(i));
        }
        BatchGetItemResponse read = server.client()
                .batchGetItem(b -> b.requestItems(Map.of(
                        TABLE,
                        KeysAndAttributes.builder()
                                .keys(keys)
                                .consistentRead(true)
                                .build())));
        List<Map<String, AttributeValue>> items = read.responses().get(TABLE);
        assertThat(items).hasSize(ITEMS);
        long answerBytes = 0;
        for (Map<String, AttributeValue> item : items) {
            int i = Integer.parseInt(item.get("SK").s().substring(1));
            byte[] value = item.get("v").b().asByteArray();
            assertThat(value).isEqualTo(values.get(i));
            answerBytes += value.length;
        }
        assertThat(answerBytes).as("the answer alone is larger than a chunk").isGreaterThan(chunkBytes);
    }
}
