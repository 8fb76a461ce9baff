package dev.kumiko.server.console;

import dev.kumiko.engine.Engine;
import dev.kumiko.server.http.KumikoServer;
import dev.kumiko.server.http.ServerConfig;
import dev.kumiko.server.metrics.HotKeys;
import dev.kumiko.server.metrics.RequestLog;
import dev.kumiko.server.metrics.ServerMetrics;
import dev.kumiko.server.metrics.Telemetry;
import dev.kumiko.server.protocol.Operations;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** A server on the memory store wired as {@code kumiko serve} wires it: metrics, hot keys, console. */
final class ConsoleServer implements AutoCloseable {
    final Engine engine;
    final Telemetry telemetry;
    final KumikoServer server;
    final DynamoDbClient client;

    ConsoleServer(ConsolePaths.Access access, byte[] model, RequestLog log) throws InterruptedException {
        this(Engine.inMemory(), access, model, log);
    }

    /** Over this engine (say, one with throttling on and a clock the test moves); closed with the server. */
    ConsoleServer(Engine engine, ConsolePaths.Access access, byte[] model, RequestLog log) throws InterruptedException {
        this.engine = engine;
        ServerMetrics metrics = new ServerMetrics(engine);
        HotKeys hotKeys = new HotKeys();
        telemetry =
                new Telemetry(metrics, hotKeys, log, new ConsolePaths(metrics, hotKeys, access, model)).attach(engine);
        server = new KumikoServer(ServerConfig.defaults("127.0.0.1", 0, "us-east-1"))
                .start(new Operations(engine), telemetry);
        client = DynamoDbClient.builder()
                .endpointOverride(endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("dummy", "dummy")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofSeconds(30))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryPolicy(RetryPolicy.none())
                        .build())
                .build();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Override
    public void close() {
        client.close();
        server.close();
        engine.close();
        telemetry.close();
    }
}
