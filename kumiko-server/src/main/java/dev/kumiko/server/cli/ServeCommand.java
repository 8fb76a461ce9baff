package dev.kumiko.server.cli;

import dev.kumiko.engine.Clock;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.EngineSettings;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kumiko serve}: runs the DynamoDB-compatible HTTP server until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the DynamoDB API over HTTP (RocksDB data directory by default).")
public final class ServeCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8000", description = "TCP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--in-memory", description = "Keep data in memory only; nothing is written to disk.")
    boolean inMemory;

    @Option(names = "--data-dir", defaultValue = "./data",
            description = "RocksDB data directory (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--region", defaultValue = "us-east-1",
            description = "Region for ARNs when a request carries none (default: ${DEFAULT-VALUE}).")
    String region;

    @Option(names = "--durability", defaultValue = "process",
            description = "process: an acknowledged write survives a crash of the server process (kill -9); "
                    + "fsync: also a machine crash (the write-ahead log is fsynced before the answer, "
                    + "concurrent writes sharing one fsync) (default: ${DEFAULT-VALUE}).")
    String durability;

    @Option(names = "--throttling",
            description = "Enforce provisioned throughput (with burst) and per-partition-key limits, answering "
                    + "DynamoDB's throttling errors; a table's kumiko:throttling tag (on/off) overrides this.")
    boolean throttling;

    @Option(names = "--ttl-sweep-interval-millis", defaultValue = "1000",
            description = "How often the TTL sweeper deletes expired items, in milliseconds; 0: only when asked "
                    + "(POST /kumiko/admin/ttl/sweep) (default: ${DEFAULT-VALUE}).")
    long ttlSweepIntervalMillis;

    @Override
    public Integer call() throws Exception {
        long startNanos = System.nanoTime();
        if (!"process".equals(durability) && !"fsync".equals(durability)) {
            System.err.println("--durability must be 'process' or 'fsync'");
            return 2;
        }
        if (ttlSweepIntervalMillis < 0) {
            System.err.println("--ttl-sweep-interval-millis must not be negative");
            return 2;
        }
        Store store = openStore();
        Engine engine = Engine.open(store, Clock.SYSTEM,
                EngineSettings.DEFAULTS.withThrottling(throttling).withTtlSweepIntervalMillis(ttlSweepIntervalMillis));
        KumikoServer server = new KumikoServer(ServerConfig.defaults(host, port, region)).start(new Operations(engine));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            engine.close();
            stopped.countDown();
        }, "kumiko-shutdown"));
        long startMillis = (System.nanoTime() - startNanos) / 1_000_000;
        System.out.printf("Kumiko listening on http://%s:%d (%s, region %s) in %d ms%n", host, server.port(),
                inMemory ? "in-memory" : "RocksDB at " + dataDir.toAbsolutePath().normalize(), region, startMillis);
        stopped.await();
        return 0;
    }

    private Store openStore() {
        if (inMemory) {
            return new MemoryStore();
        }
        return RocksStore.open(dataDir, RocksStoreOptions.defaults().withFsync("fsync".equals(durability)));
    }
}
