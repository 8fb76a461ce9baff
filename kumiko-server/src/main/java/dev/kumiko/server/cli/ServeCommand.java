package dev.kumiko.server.cli;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.auth.CredentialsFile;
import dev.kumiko.server.auth.SigV4Verifier;
import dev.kumiko.server.console.ConsolePaths;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.http.StartupPrefetch;
import dev.kumiko.server.http.TlsContexts;
import dev.kumiko.server.metrics.Telemetry;
import dev.kumiko.server.policy.PolicyAuthorizer;
import dev.kumiko.server.policy.PolicyException;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.nio.NioEventLoopGroup;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kumiko serve}: runs the DynamoDB-compatible HTTP server until interrupted. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Serve the DynamoDB API over HTTP (RocksDB data directory by default).")
public final class ServeCommand implements Callable<Integer> {
    // Defaults are the fields' initial values: picocli uses and shows them, and ServeArgs starts from them.
    @Option(names = "--port", description = "TCP port (default: ${DEFAULT-VALUE}).")
    int port = 8000;

    @Option(names = "--host", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--in-memory", description = "Keep data in memory only; nothing is written to disk.")
    boolean inMemory;

    /** Where the RocksDB store is when --data-dir (or -dbPath) does not say. */
    static final Path DATA_DIR_DEFAULT = Path.of("./data");

    // Null when not given, so that --in-memory with --data-dir can be refused rather than the directory
    // silently ignored; dataDir() is the directory used.
    @Option(
            names = "--data-dir",
            description = "RocksDB data directory, relative to the current directory (default: ./data).")
    Path dataDir;

    @Option(
            names = "--store",
            description = "rocksdb (the default, in --data-dir), memory (as --in-memory), or ignite: an Apache "
                    + "Ignite 3 cluster at --ignite-endpoints, shared by any number of servers (docs/distributed.md).")
    String storeName;

    @Option(
            names = "--ignite-endpoints",
            paramLabel = "HOST:PORT[,HOST:PORT...]",
            description =
                    "Client endpoints of the Ignite cluster for --store ignite (what `kumiko ignite start` prints).")
    String igniteEndpoints;

    @Option(
            names = "--region",
            description = "Region for ARNs when a request carries none (default: ${DEFAULT-VALUE}).")
    String region = "us-east-1";

    @Option(
            names = "--peer",
            paramLabel = "REGION=URL",
            description = "A peer region of this one for global tables, at the URL of its Kumiko server; repeat for "
                    + "each peer (docs/global-tables.md).")
    java.util.List<String> peers = new java.util.ArrayList<>();

    @Option(
            names = "--kinesis-endpoint",
            paramLabel = "URL",
            description = "A Kinesis-compatible service (e.g. kinesalite) that Kinesis streaming destinations "
                    + "ship tables' changes to; without it EnableKinesisStreamingDestination is refused "
                    + "(docs/kinesis.md).")
    String kinesisEndpoint;

    @Option(
            names = "--durability",
            description = "process: an acknowledged write survives a crash of the server process (kill -9); "
                    + "fsync: also a machine crash (the write-ahead log is fsynced before the answer, "
                    + "concurrent writes sharing one fsync) (default: ${DEFAULT-VALUE}).")
    String durability = "process";

    @Option(
            names = "--point-cache-mb",
            paramLabel = "MIB",
            description = "On the disk store: MiB of Java heap holding recently read and written items, so that "
                    + "a GetItem or a write's read of the old item of a hot key skips RocksDB; 0 turns it off "
                    + "(default: ${DEFAULT-VALUE}).")
    long pointCacheMib = RocksStoreOptions.POINT_CACHE_SIZE_BYTES_DEFAULT >> 20;

    @Option(
            names = "--idle-compaction-mb",
            paramLabel = "MIB",
            description = "On the disk store: after a second without writes (and at least 1,000 keys written since "
                    + "the last time) the memtable is flushed and, while "
                    + "the table files hold at most this many MiB, compacted into one level, so range reads "
                    + "after a burst of writes merge one level; 0 turns both off (default: ${DEFAULT-VALUE}).")
    long idleCompactionMib = RocksStoreOptions.IDLE_COMPACTION_BYTES_MAX_DEFAULT >> 20;

    @Option(
            names = "--memory-budget-mb",
            paramLabel = "MIB",
            description = "On the memory store: MiB of Java heap its data may take; a write that would grow it past "
                    + "this is refused (InternalServerError) while reads and deletes go on "
                    + "(default: half of the JVM's maximum heap).")
    Long memoryBudgetMib;

    @Option(
            names = "--in-flight-mb",
            paramLabel = "MIB",
            description = "MiB of request bodies the server holds at once across all connections; a request past "
                    + "it is answered 503 ServiceUnavailable, which the SDKs retry "
                    + "(default: a sixteenth of the JVM's maximum heap).")
    Long inFlightMib;

    @Option(
            names = "--throttling",
            description = "Enforce provisioned throughput (with burst) and per-partition-key limits, answering "
                    + "DynamoDB's throttling errors; a table's kumiko:throttling tag (on/off) overrides this.")
    boolean throttling;

    @Option(
            names = "--ttl-sweep-interval-millis",
            description = "How often the TTL sweeper deletes expired items, in milliseconds; 0: only when asked "
                    + "(POST /kumiko/admin/ttl/sweep) (default: ${DEFAULT-VALUE}).")
    long ttlSweepIntervalMillis = 1000;

    @Option(
            names = "--auth",
            description = "none: accept any credentials (local development); sigv4: verify every request's "
                    + "AWS Signature Version 4 against --credentials-file (default: ${DEFAULT-VALUE}).")
    String auth = "none";

    @Option(
            names = "--credentials-file",
            paramLabel = "FILE",
            description = "JSON file of access keys for --auth=sigv4: {\"keys\": [{\"accessKeyId\": ..., "
                    + "\"secretAccessKey\": ..., \"sessionToken\"?: ...}]} (see docs/security.md).")
    Path credentialsFile;

    @Option(
            names = "--tls-cert",
            paramLabel = "PEM",
            description = "Serve HTTPS with this PEM certificate chain (needs --tls-key).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "The certificate's PKCS#8 PEM private key.")
    Path tlsKey;

    @Mixin
    DynamoDbLocalFlags dynamoDbLocalFlags = new DynamoDbLocalFlags();

    @Mixin
    ConsoleOptions consoleOptions = new ConsoleOptions();

    @Mixin
    ExchangeOptions exchangeOptions = new ExchangeOptions();

    @Override
    public Integer call() throws Exception {
        long startNanos = System.nanoTime();
        String conflict = conflict(
                inMemory || dynamoDbLocalFlags.inMemory,
                storeName,
                dataDir != null ? "--data-dir " + dataDir : null,
                dynamoDbLocalFlags.dbPath != null ? "-dbPath " + dynamoDbLocalFlags.dbPath : null,
                igniteEndpoints);
        if (conflict != null) {
            System.err.println(conflict);
            return StartupChecks.EXIT_USAGE;
        }
        dynamoDbLocalFlags.apply(this, System.err);
        if ("memory".equals(storeName)) {
            inMemory = true;
        }
        Path dataDir = dataDir();
        boolean external = storeName != null && !"memory".equals(storeName) && !"rocksdb".equals(storeName);
        boolean newDataDir = !inMemory && !external && !java.nio.file.Files.exists(dataDir);
        try {
            StartupChecks.checkPort(port);
        } catch (StartupChecks.Failure e) {
            System.err.println(e.getMessage());
            return e.exitCode;
        }
        if (!"process".equals(durability) && !"fsync".equals(durability)) {
            System.err.println("--durability must be 'process' or 'fsync'");
            return 2;
        }
        if (!zeroOrSizeMib(pointCacheMib)) {
            System.err.println("--point-cache-mb must be 0 or in " + sizeRangeMib());
            return 2;
        }
        if (!zeroOrSizeMib(idleCompactionMib)) {
            System.err.println("--idle-compaction-mb must be 0 or in " + sizeRangeMib());
            return 2;
        }
        long heapMib = Runtime.getRuntime().maxMemory() >> 20;
        if (memoryBudgetMib != null && (memoryBudgetMib < 1 || memoryBudgetMib > heapMib)) {
            System.err.println("--memory-budget-mb must be in [1, " + heapMib + "] (the JVM's maximum heap)");
            return 2;
        }
        if (memoryBudgetMib != null && !inMemory) {
            System.err.println("--memory-budget-mb needs the memory store (--in-memory)");
            return 2;
        }
        if (inFlightMib != null && (inFlightMib < 1 || inFlightMib > heapMib)) {
            System.err.println("--in-flight-mb must be in [1, " + heapMib + "] (the JVM's maximum heap)");
            return 2;
        }
        java.util.Map<String, java.net.URI> peerEndpoints;
        try {
            peerEndpoints = dev.kumiko.server.replication.Peers.parse(peers, region);
        } catch (dev.kumiko.server.replication.Peers.Invalid e) {
            System.err.println(e.getMessage());
            return 2;
        }
        java.net.URI kinesisUri = null;
        if (kinesisEndpoint != null) {
            try {
                kinesisUri = dev.kumiko.server.kinesis.HttpKinesisLink.parseEndpoint(kinesisEndpoint);
            } catch (IllegalArgumentException e) {
                System.err.println(e.getMessage());
                return 2;
            }
        }
        if (ttlSweepIntervalMillis < 0) {
            System.err.println("--ttl-sweep-interval-millis must not be negative");
            return 2;
        }
        ServerConfig config;
        try {
            config = security(ServerConfig.defaults(host, port, region));
            config = config.withEventLoopThreads(
                    eventLoopThreads(durability, Runtime.getRuntime().availableProcessors()));
            if (inFlightMib != null) {
                config = config.withLimits(config.limits().withInFlightBytesMax(inFlightMib << 20));
            }
        } catch (StartupError e) {
            System.err.println(e.getMessage());
            return 2;
        }
        try {
            consoleOptions.check("sigv4".equals(auth));
            exchangeOptions.check();
        } catch (ConsoleOptions.Invalid e) {
            System.err.println(e.getMessage());
            return 2;
        }
        // Every option is valid; now what the machine must offer, still before anything is created.
        // Meanwhile a second thread initializes what the server needs once the engine is open. The
        // metrics registry first (Micrometer's and Prometheus's, about 16 % of the main thread's
        // CPU), Netty's event loops (7 %), then the server's own (the operation table, which was 12 %
        // while it built every operation at once; it now builds each at its first lookup).
        StartupPrefetch.start(PrometheusMeterRegistry.class, NioEventLoopGroup.class);
        try {
            StartupChecks.checkPortFree(host, port);
            if (!inMemory && !external) {
                StartupChecks.checkDataDir(dataDir);
            }
        } catch (StartupChecks.Failure e) {
            System.err.println(e.getMessage());
            return e.exitCode;
        }
        Store store;
        try {
            store = external
                    ? ExternalStores.open(
                            storeName, java.util.Map.of("endpoints", igniteEndpoints == null ? "" : igniteEndpoints))
                    : openStore();
        } catch (ExternalStores.Failure e) {
            System.err.println(e.getMessage());
            return e.exitCode;
        } catch (IllegalStateException e) {
            // Lost a race with another process after the checks, or RocksDB refused the files themselves.
            System.err.println(
                    "cannot open data directory " + dataDir.toAbsolutePath().normalize() + ": " + rootMessage(e)
                            + "; choose another --data-dir (or use --in-memory)");
            return StartupChecks.EXIT_UNAVAILABLE;
        }
        Engine engine = Engine.open(
                store,
                Clock.SYSTEM,
                EngineSettings.DEFAULTS.withThrottling(throttling).withTtlSweepIntervalMillis(ttlSweepIntervalMillis));
        dev.kumiko.server.exchange.ExchangeService.start(engine, exchangeOptions.settings());
        if (keys != null) {
            // The policy authorizer reads key schemas from the engine, so it is made once the engine is open.
            config = config.withSigV4(
                    new SigV4Verifier(keys, Clock.SYSTEM), new PolicyAuthorizer(engine, keys.values()));
        }
        // Calls to peers are signed with the credentials file's first key (docs/global-tables.md). A
        // region whose name cannot be a global table's (checked above when peers are given) has none.
        if (dev.kumiko.server.replication.Peers.validRegion(region)) {
            engine.globalTables()
                    .configure(
                            region,
                            dev.kumiko.server.replication.HttpPeerLink.all(
                                    peerEndpoints,
                                    keys == null || keys.isEmpty()
                                            ? null
                                            : keys.values().iterator().next(),
                                    engine));
        }
        if (kinesisUri != null) {
            // Signed like the calls to peers: the credentials file's first key, or a placeholder.
            engine.kinesis()
                    .configure(new dev.kumiko.server.kinesis.HttpKinesisLink(
                            kinesisUri,
                            region,
                            keys == null || keys.isEmpty()
                                    ? null
                                    : keys.values().iterator().next()));
        }
        Telemetry telemetry = consoleOptions.telemetry(engine, host, keys != null);
        KumikoServer server = new KumikoServer(config);
        try {
            server.start(new Operations(engine), telemetry);
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked
            server.close();
            engine.close();
            System.err.println(StartupChecks.bindFailure(host, port, e).getMessage());
            return StartupChecks.EXIT_UNAVAILABLE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            engine.close();
                            telemetry.close();
                            System.out.println(
                                    "Kumiko stopped after " + (System.nanoTime() - startNanos) / 1_000_000_000L + " s");
                            stopped.countDown();
                        },
                        "kumiko-shutdown"));
        long startMillis = (System.nanoTime() - startNanos) / 1_000_000;
        String scheme = config.tls() == null ? "http" : "https";
        String storeText = external
                ? storeName + " at " + igniteEndpoints
                : inMemory
                        ? "in-memory"
                        : "RocksDB at " + dataDir.toAbsolutePath().normalize() + (newDataDir ? " (new)" : "");
        String consoleText = consoleOptions.access(host, keys != null) == ConsolePaths.Access.ON
                ? ", console " + scheme + "://" + host + ":" + server.port() + "/console/"
                : "";
        // Concatenated, not printf: java.util.Formatter loads the JDK's locale data, about 3 % of a
        // start's CPU on the main threads (async-profiler).
        System.out.println("Kumiko listening on " + scheme + "://" + host + ":" + server.port() + " (" + storeText
                + ", region " + region + ", auth " + auth + consoleText + ") in " + startMillis + " ms");
        stopped.await();
        return 0;
    }

    /**
     * Options that contradict each other, as one line that says which to drop; null when none do. Each
     * would otherwise be ignored without a word: the data a user thinks is kept in a directory is not.
     *
     * @param dataDirOption "--data-dir DIR" when given, else null; {@code dbPathOption} the same for -dbPath
     */
    static String conflict(
            boolean inMemory, String storeName, String dataDirOption, String dbPathOption, String igniteEndpoints) {
        if (dataDirOption != null && dbPathOption != null) {
            return dataDirOption + " and " + dbPathOption + " both name the data directory: give one of them";
        }
        String dir = dataDirOption != null ? dataDirOption : dbPathOption;
        if (inMemory && storeName != null && !"memory".equals(storeName)) {
            return "--in-memory and --store " + storeName + " contradict each other: give one of them";
        }
        boolean memory = inMemory || "memory".equals(storeName);
        if (memory && dir != null) {
            return (inMemory ? "--in-memory" : "--store memory") + " keeps nothing on disk, so " + dir
                    + " would be ignored: give one of them";
        }
        boolean ignite = "ignite".equals(storeName);
        if (ignite && dir != null) {
            return "--store ignite keeps the data in the Ignite cluster, so " + dir + " would be ignored: give one "
                    + "of them";
        }
        if (!ignite && igniteEndpoints != null) {
            return "--ignite-endpoints is for --store ignite: add --store ignite, or drop --ignite-endpoints";
        }
        return null;
    }

    /** The data directory used: --data-dir's (or -dbPath's), else ./data. */
    Path dataDir() {
        return dataDir != null ? dataDir : DATA_DIR_DEFAULT;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage()).strip();
    }

    /** A bad security option: one line on stderr and exit code 2, before anything is opened. */
    private static final class StartupError extends Exception {
        StartupError(String message) {
            super(message, null, false, false);
        }
    }

    /** The --credentials-file keys, loaded and their policies checked by {@link #security}; null without sigv4. */
    private Map<String, AccessKey> keys;

    private ServerConfig security(ServerConfig config) throws StartupError {
        if ("sigv4".equals(auth)) {
            if (credentialsFile == null) {
                throw new StartupError("--auth=sigv4 needs --credentials-file");
            }
            try {
                keys = CredentialsFile.load(credentialsFile);
                PolicyAuthorizer.check(keys.values());
            } catch (CredentialsFile.Invalid | PolicyException e) {
                throw new StartupError(e.getMessage());
            }
        } else if (!"none".equals(auth)) {
            throw new StartupError("--auth must be 'none' or 'sigv4'");
        } else if (credentialsFile != null) {
            throw new StartupError("--credentials-file needs --auth=sigv4");
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new StartupError("--tls-cert and --tls-key go together");
        }
        if (tlsCert != null) {
            try {
                config = config.withTls(TlsContexts.server(tlsCert, tlsKey));
            } catch (TlsContexts.Invalid e) {
                throw new StartupError(e.getMessage());
            }
        }
        return config;
    }

    /**
     * The fewest event loops {@code --durability fsync} runs (twice the cores past 8 cores): a write
     * waits for its fsync on the event loop that runs it, and the writes waiting at once share one
     * fsync (RocksDB's write groups), so the loop count bounds a group however many clients there
     * are. Measured on 2 cores at 32 connections against 4 loops (docs/durability.md): puts and
     * updates 1.3-1.8x per second, reads 0.83-0.90x (more loops each wake for fewer requests); 32
     * loops measured the same as 16.
     */
    static final int FSYNC_EVENT_LOOPS_MIN = 16;

    /** Netty's event loops, which run the requests: one per core, more when writes wait for fsync. */
    static int eventLoopThreads(String durability, int cores) {
        assert cores > 0 : cores;
        return "fsync".equals(durability) ? Math.max(2 * cores, FSYNC_EVENT_LOOPS_MIN) : cores;
    }

    /** A RocksStore size option in MiB: 0 (off) or within the store's size bounds. */
    private static boolean zeroOrSizeMib(long mib) {
        return mib == 0
                || (mib >= RocksStoreOptions.SIZE_BYTES_MIN >> 20 && mib <= RocksStoreOptions.SIZE_BYTES_MAX >> 20);
    }

    private static String sizeRangeMib() {
        return "[" + (RocksStoreOptions.SIZE_BYTES_MIN >> 20) + ", " + (RocksStoreOptions.SIZE_BYTES_MAX >> 20) + "]";
    }

    private Store openStore() {
        if (inMemory) {
            return memoryBudgetMib == null ? new MemoryStore() : new MemoryStore(memoryBudgetMib << 20);
        }
        return RocksStore.open(
                dataDir(),
                RocksStoreOptions.defaults()
                        .withFsync("fsync".equals(durability))
                        .withPointCacheSizeBytes(pointCacheMib << 20)
                        .withIdleCompactionBytesMax(idleCompactionMib << 20));
    }
}
