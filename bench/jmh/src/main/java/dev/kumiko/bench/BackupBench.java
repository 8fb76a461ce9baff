package dev.kumiko.bench;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.backup.BackupRequests;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.ProjectionInput;
import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * How long an on-demand backup, a restore from it, and a point-in-time restore of a large RocksDB
 * table take, through the engine (no HTTP).
 *
 * <pre>
 * java -cp CP dev.kumiko.bench.BackupBench DIR [ITEMS]   # DIR: a fresh directory (default 1,000,000 items)
 * </pre>
 *
 * Loads one table "items" (about 100-byte items, a KEYS_ONLY GSI on a 1,000-value attribute) with
 * BatchWriteItem, then times: CreateBackup until AVAILABLE; RestoreTableFromBackup until the new
 * table is ACTIVE; UpdateContinuousBackups (its base copy) followed by 1,000 more writes and
 * RestoreTableToPointInTime to the latest time until ACTIVE. Prints one JSON line.
 */
public final class BackupBench {
    static final int ITEMS_DEFAULT = 1_000_000;
    static final int BATCH_ITEMS = 25;
    static final int LATER_WRITES = 1_000;
    static final RequestContext CTX = new RequestContext("us-east-1");

    private BackupBench() {}

    public static void main(String[] args) throws InterruptedException {
        Path dir = Path.of(args[0]);
        int items = args.length > 1 ? Integer.parseInt(args[1]) : ITEMS_DEFAULT;
        try (Engine engine =
                Engine.open(RocksStore.open(dir, RocksStoreOptions.defaults().withFsync(false)))) {
            long t0 = System.nanoTime();
            load(engine, 0, items);
            double loadS = (System.nanoTime() - t0) / 1e9;

            t0 = System.nanoTime();
            String arn = engine.backups()
                    .backups()
                    .createBackup(CTX, new BackupRequests.CreateBackup("items", "bench"))
                    .backupArn();
            await(() -> "AVAILABLE"
                    .equals(engine.backups().backups().describeBackup(arn).status()));
            double backupS = (System.nanoTime() - t0) / 1e9;

            t0 = System.nanoTime();
            engine.backups()
                    .backups()
                    .restoreTableFromBackup(CTX, new BackupRequests.RestoreFromBackup("fromBackup", arn, null));
            awaitActive(engine, "fromBackup");
            double restoreS = (System.nanoTime() - t0) / 1e9;

            t0 = System.nanoTime();
            engine.backups().continuous().update(new BackupRequests.UpdateContinuousBackups("items", true, null));
            load(engine, items, items + LATER_WRITES);
            Thread.sleep(1_100); // past the latest restorable time's lag
            engine.backups()
                    .continuous()
                    .restoreToPointInTime(
                            CTX, new BackupRequests.RestoreToPointInTime(null, "items", "atLatest", true, null, null));
            awaitActive(engine, "atLatest");
            double pitrS = (System.nanoTime() - t0) / 1e9;

            System.out.printf(
                    "{\"items\":%d,\"load_s\":%.1f,\"backup_s\":%.1f,\"restore_from_backup_s\":%.1f,"
                            + "\"pitr_enable_write_restore_s\":%.1f,\"restored_items\":%d,\"pitr_items\":%d}%n",
                    items,
                    loadS,
                    backupS,
                    restoreS,
                    pitrS,
                    engine.control().describeTable(CTX, "fromBackup").itemCount(),
                    engine.control().describeTable(CTX, "atLatest").itemCount());
        }
    }

    private static void load(Engine engine, int from, int to) {
        if (from == 0) {
            engine.control()
                    .createTable(
                            CTX,
                            new CreateTableRequest(
                                    "items",
                                    List.of(
                                            new AttributeDefinitionInput("pk", ScalarAttributeType.S),
                                            new AttributeDefinitionInput("group", ScalarAttributeType.S)),
                                    List.of(new KeySchemaInput("pk", KeyType.HASH)),
                                    null,
                                    List.of(new IndexInput(
                                            "byGroup",
                                            List.of(new KeySchemaInput("group", KeyType.HASH)),
                                            new ProjectionInput(ProjectionType.KEYS_ONLY, null),
                                            null)),
                                    BillingMode.PAY_PER_REQUEST,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null));
        }
        for (int first = from; first < to; first += BATCH_ITEMS) {
            List<BatchRequests.WriteRequest> writes = new ArrayList<>(BATCH_ITEMS);
            for (int i = first; i < Math.min(to, first + BATCH_ITEMS); i++) {
                writes.add(new BatchRequests.WriteRequest(item(i), null));
            }
            engine.items().batchWriteItem(new BatchRequests.BatchWrite(Map.of("items", writes), null, null));
        }
    }

    private static Map<String, AttributeValue> item(int i) {
        return Map.of(
                "pk",
                AttributeValue.s(String.format("item#%08d", i)),
                "group",
                AttributeValue.s("g" + i % 1000),
                "payload",
                AttributeValue.s("x".repeat(64)),
                "n",
                AttributeValue.n(i));
    }

    private static void awaitActive(Engine engine, String table) throws InterruptedException {
        await(() -> "ACTIVE".equals(engine.control().describeTable(CTX, table).tableStatus()));
    }

    private static void await(BooleanSupplier done) throws InterruptedException {
        while (!done.getAsBoolean()) {
            Thread.sleep(100);
        }
    }
}
