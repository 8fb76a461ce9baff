package dev.kumiko.embedded;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.admin.AdminHooks;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.http.StartupPrefetch;
import dev.kumiko.server.protocol.Operations;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Kumiko inside this JVM: a real server on a free loopback port, so the AWS SDK talks to it exactly
 * as it talks to DynamoDB, plus the test hooks (reset, TTL's clock, the TTL sweep) as Java calls.
 *
 * <pre>{@code
 * try (Kumiko kumiko = Kumiko.inMemory()) {
 *     DynamoDbClient ddb = kumiko.dynamoDbClient();
 *     ...
 *     kumiko.reset();                                  // drop every table
 *     kumiko.advanceClock(Duration.ofDays(1));         // TTL's time moves on...
 *     kumiko.sweepExpiredItems();                      // ...and expired items go now
 * }
 * }</pre>
 *
 * <p>The clients it hands out are made on first use, use dummy credentials and the region
 * {@link #REGION}, and are closed by {@link #close()}. The AWS SDK for Java v2 is not bundled: the
 * application brings its own (and its own HTTP client), which is why the SDK's types appear here.
 */
public final class Kumiko implements AutoCloseable {
    /** The region the handed-out clients use; Kumiko serves any region. */
    public static final Region REGION = Region.US_EAST_1;
    /** Dummy credentials: Kumiko embedded accepts any (it runs with {@code --auth=none}). */
    public static final String ACCESS_KEY_ID = "kumiko";

    public static final String SECRET_ACCESS_KEY = "kumiko";
    /** Tests need few threads; fewer also start faster. */
    static final int EVENT_LOOP_THREADS_MAX = 2;

    private static final String LOOPBACK = "127.0.0.1";

    private final Engine engine;
    private final KumikoServer server;
    private final URI endpoint;
    private final SdkClients clients;

    private Kumiko(Engine engine, KumikoServer server) {
        this.engine = engine;
        this.server = server;
        this.endpoint = URI.create("http://" + LOOPBACK + ":" + server.port());
        this.clients = new SdkClients(this);
    }

    /** A server over a fresh in-memory store: nothing touches the disk. */
    public static Kumiko inMemory() {
        return builder().start();
    }

    /**
     * A server over a RocksDB store in {@code dir} (created if missing; data survives {@link #close()}).
     * Needs {@code org.rocksdb:rocksdbjni} on the class path, an optional dependency of this artifact.
     */
    public static Kumiko onDisk(Path dir) {
        return builder().onDisk(dir).start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Options beyond {@link #inMemory()} and {@link #onDisk(Path)}. */
    public static final class Builder {
        private @Nullable Path dataDir;
        private long ttlSweepIntervalMillis = EngineSettings.TTL_SWEEP_INTERVAL_MILLIS;
        private boolean throttling;

        private Builder() {}

        /** RocksDB in this directory instead of memory. */
        public Builder onDisk(Path dir) {
            this.dataDir = dir;
            return this;
        }

        /**
         * How often expired TTL items are deleted in the background; 0: only by
         * {@link Kumiko#sweepExpiredItems()}, which makes TTL tests fully deterministic.
         */
        public Builder ttlSweepIntervalMillis(long millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("ttlSweepIntervalMillis must not be negative: " + millis);
            }
            this.ttlSweepIntervalMillis = millis;
            return this;
        }

        /** Enforce provisioned throughput, as {@code kumiko serve --throttling}. */
        public Builder throttling(boolean on) {
            this.throttling = on;
            return this;
        }

        public Kumiko start() {
            // The first start in a JVM is mostly class loading: a second thread initializes what the
            // server needs (the operation table, buffer pools) while this one opens the engine.
            StartupPrefetch.start();
            Store store = dataDir == null ? new MemoryStore() : DiskStore.open(dataDir);
            EngineSettings settings = EngineSettings.DEFAULTS
                    .withThrottling(throttling)
                    .withTtlSweepIntervalMillis(ttlSweepIntervalMillis);
            Engine engine = Engine.open(store, Clock.SYSTEM, settings);
            int threads = Math.min(EVENT_LOOP_THREADS_MAX, Runtime.getRuntime().availableProcessors());
            KumikoServer server = new KumikoServer(
                    ServerConfig.defaults(LOOPBACK, 0, REGION.id()).withEventLoopThreads(threads));
            try {
                server.start(new Operations(engine));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                server.close();
                engine.close();
                throw new IllegalStateException("interrupted while starting Kumiko", e);
            } catch (RuntimeException e) {
                server.close();
                engine.close();
                throw e;
            }
            return new Kumiko(engine, server);
        }
    }

    /** {@code http://127.0.0.1:<port>}: for {@code endpointOverride}, or any other client. */
    public URI endpoint() {
        return endpoint;
    }

    public int port() {
        return server.port();
    }

    /** A DynamoDB client for this server, made on first use and closed by {@link #close()}. */
    public DynamoDbClient dynamoDbClient() {
        return clients.sync();
    }

    /** An async DynamoDB client for this server (the SDK's default async HTTP client), closed by {@link #close()}. */
    public DynamoDbAsyncClient dynamoDbAsyncClient() {
        return clients.async();
    }

    /** A DynamoDB Streams client for this server, closed by {@link #close()}. */
    public DynamoDbStreamsClient streamsClient() {
        return clients.streams();
    }

    /**
     * Points any SDK client builder at this server (endpoint, region, dummy credentials), for a client
     * with your own HTTP client or overrides: {@code kumiko.configure(DynamoDbClient.builder()).build()}.
     * The caller closes what it builds.
     */
    public <B extends AwsClientBuilder<B, ?>> B configure(B builder) {
        return builder.endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY)));
    }

    /**
     * Drops every table (items, indexes, streams) and puts TTL's clock back on the system clock. Takes
     * well under a millisecond for a few small tables; requests in flight meanwhile see either side.
     */
    public void reset() {
        engine.admin().dropAllTables();
        engine.admin().resetTimeToLiveClock();
    }

    /** The time TTL judges expiry by. */
    public Instant now() {
        return Instant.ofEpochMilli(hooks().timeToLiveNowMillis());
    }

    /** Sets TTL's time; it runs on from there with the system clock. */
    public void setClock(Instant now) {
        hooks().setTimeToLiveClock(now.toEpochMilli());
    }

    /** Moves TTL's time forward (or back, if negative). */
    public void advanceClock(Duration by) {
        hooks().advanceTimeToLiveClock(by.toMillis());
    }

    /** TTL's time is the system clock again. */
    public void resetClock() {
        hooks().resetTimeToLiveClock();
    }

    /** Deletes every expired item of every table with TTL enabled, now; returns how many. */
    public long sweepExpiredItems() {
        return hooks().sweepTimeToLive();
    }

    /** Drops stream records older than 24 hours (by the system clock) now; returns how many. */
    public long trimStreams() {
        return hooks().trimStreams();
    }

    private AdminHooks hooks() {
        return engine.admin();
    }

    /** Closes the clients handed out, the server (its port and threads) and the store. */
    @Override
    public void close() {
        try {
            clients.close();
        } finally {
            try {
                server.close();
            } finally {
                engine.close();
            }
        }
    }
}
