package dev.kumiko.testcontainers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Kumiko's container image (docker/Dockerfile) started by Testcontainers: a DynamoDB-compatible
 * server for a test of any JVM language, with its endpoint and ready-made AWS SDK v2 clients.
 *
 * <pre>{@code
 * try (KumikoContainer kumiko = new KumikoContainer().withInMemory()) {
 *     kumiko.start();
 *     DynamoDbClient ddb = kumiko.getDynamoDbClient();
 * }
 * }</pre>
 *
 * <p>By default the server keeps its data on disk, in the container's volume {@code /data} (RocksDB,
 * as {@code bin/kumiko serve --data-dir /data}); {@link #withInMemory()} keeps it in memory. The
 * server listens on port {@value #DEFAULT_PORT} in the container, mapped to a free port of the host;
 * {@link #withHostNetwork()} runs it on the host's network on a free port instead (for engines that
 * have no bridge network). Requests are not signature-checked ({@code --auth=none}, the server's
 * default): the clients use dummy credentials and region {@value #REGION}.
 *
 * <p>The image is not pulled from a registry by default: {@code kumiko:VERSION} is what {@code
 * scripts/docker-image.sh} builds from the distribution archive (docs/testing.md, "Testcontainers").
 */
public class KumikoContainer extends GenericContainer<KumikoContainer> {
    /** The port the server listens on inside the container (on a bridge network). */
    public static final int DEFAULT_PORT = 8000;
    /** The region the clients name (any region works; ARNs name it). */
    public static final String REGION = "us-east-1";
    /** Dummy credentials: the server runs without signature checks. */
    public static final String ACCESS_KEY_ID = "kumiko";

    public static final String SECRET_ACCESS_KEY = "kumiko";
    /** The server's data directory in the container, a volume of the image. */
    public static final String DATA_DIR = "/data";

    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

    private boolean inMemory;
    private int hostNetworkPort;
    private @Nullable SdkClients clients;

    /** The image {@code kumiko:VERSION} of this module's version. */
    public KumikoContainer() {
        this(defaultImageName());
    }

    public KumikoContainer(String imageName) {
        this(DockerImageName.parse(imageName));
    }

    public KumikoContainer(DockerImageName imageName) {
        super(imageName);
        withExposedPorts(DEFAULT_PORT);
        // The server prints this line once it accepts requests.
        waitingFor(Wait.forLogMessage(".*Kumiko listening on .*\\n", 1).withStartupTimeout(STARTUP_TIMEOUT));
    }

    /** {@code kumiko:VERSION}, the tag scripts/docker-image.sh gives the image by default. */
    public static String defaultImageName() {
        return "kumiko:" + KumikoVersion.current();
    }

    /** Keeps every table in memory ({@code --in-memory}): nothing is written to {@code /data}. */
    public KumikoContainer withInMemory() {
        this.inMemory = true;
        return self();
    }

    /**
     * Runs the container on the host's network ({@code --network host}), the server on a free port of
     * the host chosen now, instead of a mapped port on a bridge network.
     */
    public KumikoContainer withHostNetwork() {
        return withHostNetwork(freeLoopbackPort());
    }

    /** Runs the container on the host's network, the server on {@code port} of the host. */
    public KumikoContainer withHostNetwork(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + " is not in 1..65535");
        }
        this.hostNetworkPort = port;
        setExposedPorts(List.of());
        return withNetworkMode("host");
    }

    /** True when the server keeps its tables in memory. */
    public boolean isInMemory() {
        return inMemory;
    }

    @Override
    protected void configure() {
        List<String> args = new ArrayList<>(List.of("--port", Integer.toString(serverPort())));
        if (inMemory) {
            args.add("--in-memory");
        } else {
            args.addAll(List.of("--data-dir", DATA_DIR));
        }
        withCommand(args.toArray(new String[0]));
    }

    /** The port the server listens on in its network namespace (the container's, or the host's). */
    public int serverPort() {
        return hostNetworkPort > 0 ? hostNetworkPort : DEFAULT_PORT;
    }

    /** {@code http://HOST:PORT} of the running server, for {@code endpointOverride} or any HTTP client. */
    public URI getEndpoint() {
        if (!isRunning()) {
            throw new IllegalStateException("the Kumiko container is not running (call start() first)");
        }
        int port = hostNetworkPort > 0 ? hostNetworkPort : getMappedPort(DEFAULT_PORT);
        return URI.create("http://" + getHost() + ":" + port);
    }

    /** A DynamoDB client for this server, made on first use and closed by {@link #stop()}. */
    public DynamoDbClient getDynamoDbClient() {
        return clients().sync();
    }

    /** An async DynamoDB client (the SDK's default async HTTP client), closed by {@link #stop()}. */
    public DynamoDbAsyncClient getDynamoDbAsyncClient() {
        return clients().async();
    }

    /**
     * Points any SDK client builder at this server (endpoint, region, dummy credentials), for a client
     * with your own HTTP client or overrides: {@code kumiko.configure(DynamoDbClient.builder()).build()}.
     * The caller closes what it builds.
     */
    public <B extends AwsClientBuilder<B, ?>> B configure(B builder) {
        return SdkClients.configure(builder, getEndpoint());
    }

    private synchronized SdkClients clients() {
        URI endpoint = getEndpoint();
        SdkClients current = clients;
        if (current == null || !current.endpoint().equals(endpoint)) {
            if (current != null) {
                current.close();
            }
            current = new SdkClients(endpoint);
            clients = current;
        }
        return current;
    }

    @Override
    public void stop() {
        synchronized (this) {
            if (clients != null) {
                clients.close();
                clients = null;
            }
        }
        super.stop();
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on this machine", e);
        }
    }
}
