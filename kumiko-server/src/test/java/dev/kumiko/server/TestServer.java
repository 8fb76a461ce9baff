package dev.kumiko.server;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.auth.SigV4Verifier;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.policy.PolicyAuthorizer;
import dev.kumiko.server.policy.RequestAuthorizer;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A real Kumiko server on an ephemeral port, over the memory store or RocksDB in a temp dir, and an
 * AWS SDK v2 client pointed at it with dummy credentials and no retries (so every error surfaces).
 *
 * <p>A test that asks for the memory store runs on the store named by the system property
 * {@value #STORE_PROPERTY} when it is set ({@code memory}, {@code rocksdb}, or {@code remote}: the
 * memory store posing as one reached over the network; {@code ignite}: a running cluster, see
 * {@link IgniteForTests}), so the whole suite can run on any store:
 * {@code mvn test -pl kumiko-server -am -Dkumiko.test.store=rocksdb} (CI runs it on memory and on
 * RocksDB). A test that asks for RocksDB needs its files (restarts, crashes) and keeps it; one that
 * asks for the remote store tests what the server does over one.
 */
public final class TestServer implements AutoCloseable {
    public enum StoreKind {
        MEMORY,
        ROCKSDB,
        REMOTE,
        /**
         * A running Ignite cluster's store, emptied for each server ({@link IgniteForTests}); tests
         * that run on every kind leave it out, since it needs a cluster the suite is pointed at.
         */
        IGNITE
    }

    public static final String STORE_PROPERTY = "kumiko.test.store";

    private final StoreKind kind;
    private final Path dataDir;
    private final EngineSettings settings;
    private final Clock clock;
    private final Security security;
    private final UnaryOperator<Store> wrap;
    /** The store to serve instead of a new one of kind (a memory store with a budget), or null. */
    private Store given;

    private ServerLimits limits = ServerLimits.DEFAULTS;
    private Engine engine;
    private KumikoServer server;
    private DynamoDbClient client;

    /**
     * What {@code kumiko serve --auth/--tls-*} would set: keys (null: --auth=none), the authorizer made
     * from the engine (as PolicyAuthorizer needs it), and a TLS context (null: plain HTTP).
     */
    public record Security(
            Map<String, AccessKey> keys, Function<Engine, RequestAuthorizer> authorizer, SslContext tls) {
        public static final Security NONE = new Security(null, null, null);

        /** --auth=sigv4 with these keys, authorized as {@code kumiko serve} does. */
        public static Security sigV4(Map<String, AccessKey> keys) {
            return new Security(keys, engine -> new PolicyAuthorizer(engine, keys.values()), null);
        }

        public Security withTls(SslContext context) {
            return new Security(keys, authorizer, context);
        }
    }

    private TestServer(
            StoreKind kind,
            Path dataDir,
            EngineSettings settings,
            Clock clock,
            Security security,
            UnaryOperator<Store> wrap) {
        this.kind = kind;
        this.dataDir = dataDir;
        this.settings = settings;
        this.clock = clock;
        this.security = security;
        this.wrap = wrap;
    }

    public static TestServer start(StoreKind kind) {
        return start(kind, EngineSettings.DEFAULTS);
    }

    /** A server whose engine has smaller limits, so that a test can reach them. */
    public static TestServer start(StoreKind kind, EngineSettings settings) {
        return start(kind, settings, Clock.SYSTEM);
    }

    /** A server whose engine reads time from {@code clock}, e.g. a {@link ManualClock}. */
    public static TestServer start(StoreKind kind, EngineSettings settings, Clock clock) {
        return start(kind, settings, clock, Security.NONE);
    }

    /** A server with SigV4 verification and/or TLS; the client of {@link #client()} stays unsigned-dummy. */
    public static TestServer start(StoreKind kind, EngineSettings settings, Clock clock, Security security) {
        return start(kind, settings, clock, security, UnaryOperator.identity());
    }

    /**
     * A server over the store that wrap makes of the chosen one, e.g. a test's
     * {@link dev.kumiko.storage.ForwardingStore} that parks a commit; wrap runs again on a restart.
     */
    public static TestServer start(StoreKind kind, UnaryOperator<Store> wrap) {
        return start(kind, EngineSettings.DEFAULTS, Clock.SYSTEM, Security.NONE, wrap);
    }

    /**
     * A server over this memory store (say, one with a small budget of heap) and these server limits
     * (say, a small bound on the bytes in flight); not restartable, and always on this store,
     * whatever {@value #STORE_PROPERTY} says, since what it tests is that store and those limits.
     */
    public static TestServer start(MemoryStore store, ServerLimits limits) {
        return start(store, limits, Security.NONE);
    }

    /** As {@link #start(MemoryStore, ServerLimits)}, with SigV4 verification and/or TLS. */
    public static TestServer start(MemoryStore store, ServerLimits limits, Security security) {
        TestServer s = new TestServer(
                StoreKind.MEMORY, null, EngineSettings.DEFAULTS, Clock.SYSTEM, security, UnaryOperator.identity());
        s.given = store;
        s.limits = limits;
        s.open();
        return s;
    }

    private static TestServer start(
            StoreKind kind, EngineSettings settings, Clock clock, Security security, UnaryOperator<Store> wrap) {
        try {
            StoreKind effective = kind == StoreKind.MEMORY ? chosenStore() : kind;
            Path dir = effective == StoreKind.ROCKSDB ? Files.createTempDirectory("kumiko-test") : null;
            TestServer s = new TestServer(effective, dir, settings, clock, security, wrap);
            s.open();
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The store the suite runs on when a test asks for memory: the system property's, if set. */
    static StoreKind chosenStore() {
        String name = chosenStoreName();
        return switch (name) {
            case "memory" -> StoreKind.MEMORY;
            case "rocksdb" -> StoreKind.ROCKSDB;
            case "remote" -> StoreKind.REMOTE;
            case "ignite" -> StoreKind.IGNITE;
            default ->
                throw new IllegalArgumentException(
                        STORE_PROPERTY + " must be memory, rocksdb, remote or ignite: " + name);
        };
    }

    /** The system property's value, or memory when it is not set. */
    static String chosenStoreName() {
        return System.getProperty(STORE_PROPERTY, "memory");
    }

    private void open() {
        Store store = given != null
                ? given
                : switch (kind) {
                    case MEMORY -> new MemoryStore();
                    case REMOTE -> new RemoteStore(new MemoryStore());
                    case ROCKSDB -> RocksStore.open(dataDir, RocksStoreOptions.defaults());
                    case IGNITE -> IgniteForTests.freshStore();
                };
        engine = Engine.open(wrap.apply(store), clock, settings);
        try {
            ServerConfig config =
                    ServerConfig.defaults("127.0.0.1", 0, "us-east-1").withLimits(limits);
            if (security.keys() != null) {
                config = config.withSigV4(
                        new SigV4Verifier(security.keys(), clock),
                        security.authorizer().apply(engine));
            }
            if (security.tls() != null) {
                config = config.withTls(security.tls());
            }
            server = new KumikoServer(config).start(new Operations(engine));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        client = newClient("us-east-1");
    }

    /** Stops the server and opens the same data again (RocksDB only): a clean restart. */
    public void restart() {
        assert kind == StoreKind.ROCKSDB && given == null;
        closeServer();
        open();
    }

    public DynamoDbClient client() {
        return client;
    }

    /** The engine behind the server, for tests that drive its background work directly. */
    public Engine engine() {
        return engine;
    }

    public DynamoDbClient newClient(String region) {
        return newClient(region, AwsBasicCredentials.create("dummy", "dummy"));
    }

    /** A client that signs with these credentials (AwsSessionCredentials add X-Amz-Security-Token). */
    public DynamoDbClient newClient(String region, AwsCredentials credentials) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint())
                .region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofSeconds(30))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryPolicy(RetryPolicy.none())
                        .build())
                .build();
    }

    public URI endpoint() {
        return URI.create((security.tls() == null ? "http" : "https") + "://127.0.0.1:" + server.port());
    }

    public int port() {
        return server.port();
    }

    /** Bytes of request bodies the server holds now (0 once every request has been answered). */
    public long inFlightBytes() {
        return server.inFlightBytes();
    }

    public StoreKind kind() {
        return kind;
    }

    private void closeServer() {
        client.close();
        server.close();
        engine.close();
    }

    @Override
    public void close() {
        closeServer();
        if (dataDir != null) {
            try (Stream<Path> paths = Files.walk(dataDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
