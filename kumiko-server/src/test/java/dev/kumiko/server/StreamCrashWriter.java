package dev.kumiko.server;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The child process of {@link StreamCrashTest}: an engine on RocksDB writing items to a table
 * with a stream, printing each write's index only after the write returned (an acknowledged
 * write). Two threads write at once, so records commit out of number order. It never closes the
 * engine; the parent kills it with SIGKILL.
 */
public final class StreamCrashWriter {
    static final String TABLE = "crashed";
    static final int THREADS = 2;

    private StreamCrashWriter() {}

    public static void main(String[] args) throws InterruptedException {
        Engine engine = Engine.open(RocksStore.open(Path.of(args[0]), RocksStoreOptions.defaults()));
        int writesPerThread = Integer.parseInt(args[1]);
        engine.control()
                .createTable(
                        new RequestContext("us-east-1"),
                        new CreateTableRequest(
                                TABLE,
                                List.of(new CreateTableRequest.AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                List.of(new CreateTableRequest.KeySchemaInput("pk", KeyType.HASH)),
                                null,
                                null,
                                BillingMode.PAY_PER_REQUEST,
                                null,
                                new CreateTableRequest.StreamInput(true, StreamViewType.NEW_IMAGE),
                                null,
                                null,
                                null,
                                null));
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < writesPerThread; i++) {
                    String pk = thread + "-" + i;
                    engine.items()
                            .putItem(new ItemRequests.PutItem(
                                    TABLE,
                                    Map.of("pk", AttributeValue.s(pk)),
                                    null,
                                    null,
                                    null,
                                    null,
                                    ItemRequests.Conditions.NONE));
                    synchronized (System.out) {
                        System.out.println(pk);
                        System.out.flush();
                    }
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("done");
        System.out.flush();
    }
}
