package dev.kumiko.bench;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How long a RocksDB data directory of many items takes to open: from launch to the first answer.
 *
 * <pre>
 * java -cp CP dev.kumiko.bench.RocksOpen load DIR [ITEMS]   # fills DIR (default 1,000,000 items)
 * java -cp CP dev.kumiko.bench.RocksOpen open DIR           # a fresh JVM: open, first GetItem
 * </pre>
 *
 * The load goes through the engine (BatchWriteItem, 25 items a call, no fsync) into one table
 * "items" of about 100-byte items; open prints one JSON line: the time from the JVM's start and
 * from main to the first GetItem answered, and the item count DescribeTable reports (read from
 * the store's counters, not counted at open).
 */
public final class RocksOpen {
    static final int ITEMS_DEFAULT = 1_000_000;
    static final int BATCH_ITEMS = 25;
    static final RequestContext CTX = new RequestContext("us-east-1");

    private RocksOpen() {}

    public static void main(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: load DIR [ITEMS] | open DIR");
        }
        Path dir = Path.of(args[1]);
        if (args[0].equals("load")) {
            load(dir, args.length > 2 ? Integer.parseInt(args[2]) : ITEMS_DEFAULT);
        } else {
            open(dir);
        }
    }

    private static void load(Path dir, int items) {
        long t0 = System.nanoTime();
        try (Engine engine =
                Engine.open(RocksStore.open(dir, RocksStoreOptions.defaults().withFsync(false)))) {
            engine.control()
                    .createTable(
                            CTX,
                            new CreateTableRequest(
                                    "items",
                                    List.of(new AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                    List.of(new KeySchemaInput("pk", KeyType.HASH)),
                                    null,
                                    null,
                                    BillingMode.PAY_PER_REQUEST,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null));
            for (int first = 0; first < items; first += BATCH_ITEMS) {
                List<BatchRequests.WriteRequest> writes = new ArrayList<>(BATCH_ITEMS);
                for (int i = first; i < Math.min(items, first + BATCH_ITEMS); i++) {
                    writes.add(new BatchRequests.WriteRequest(item(i), null));
                }
                engine.items().batchWriteItem(new BatchRequests.BatchWrite(Map.of("items", writes), null, null));
            }
        }
        System.out.printf("{\"loaded_items\":%d,\"load_s\":%.1f}%n", items, (System.nanoTime() - t0) / 1e9);
    }

    private static Map<String, AttributeValue> item(int i) {
        return Map.of(
                "pk",
                AttributeValue.s(String.format("item#%08d", i)),
                "payload",
                AttributeValue.s("x".repeat(64)),
                "n",
                AttributeValue.n(i));
    }

    private static void open(Path dir) {
        long mainNanos = System.nanoTime();
        RocksStore store = RocksStore.open(dir, RocksStoreOptions.defaults());
        long storeNanos = System.nanoTime();
        Engine engine = Engine.open(store);
        long engineNanos = System.nanoTime();
        var got = engine.items()
                .getItem(new ItemRequests.GetItem(
                        "items", Map.of("pk", AttributeValue.s("item#00000007")), true, null, null, null, null));
        long answeredNanos = System.nanoTime();
        Instant launched = ProcessHandle.current().info().startInstant().orElseThrow();
        long sinceLaunchMillis = Duration.between(launched, Instant.now()).toMillis();
        if (got.attributes() == null) {
            throw new IllegalStateException("item#00000007 is missing: was the directory loaded?");
        }
        long count = engine.control().describeTable(CTX, "items").itemCount();
        engine.close();
        System.out.printf(
                "{\"first_answer_since_launch_ms\":%d,\"first_answer_since_main_ms\":%.1f,"
                        + "\"store_open_ms\":%.1f,\"engine_open_ms\":%.1f,\"first_get_ms\":%.1f,\"item_count\":%d}%n",
                sinceLaunchMillis,
                (answeredNanos - mainNanos) / 1e6,
                (storeNanos - mainNanos) / 1e6,
                (engineNanos - storeNanos) / 1e6,
                (answeredNanos - engineNanos) / 1e6,
                count);
    }
}
