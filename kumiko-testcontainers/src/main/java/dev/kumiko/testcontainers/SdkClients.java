package dev.kumiko.testcontainers;

import java.net.URI;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The SDK clients one {@link KumikoContainer} hands out: each made on first use, all closed together.
 * The only class here that names the AWS SDK's types, so that a test that takes just the endpoint
 * runs without the SDK on its class path.
 */
final class SdkClients implements AutoCloseable {
    private final URI endpoint;
    private @Nullable DynamoDbClient sync;
    private @Nullable DynamoDbAsyncClient async;

    SdkClients(URI endpoint) {
        this.endpoint = endpoint;
    }

    static <B extends AwsClientBuilder<B, ?>> B configure(B builder, URI endpoint) {
        return builder.endpointOverride(endpoint)
                .region(Region.of(KumikoContainer.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(KumikoContainer.ACCESS_KEY_ID, KumikoContainer.SECRET_ACCESS_KEY)));
    }

    URI endpoint() {
        return endpoint;
    }

    synchronized DynamoDbClient sync() {
        if (sync == null) {
            sync = configure(DynamoDbClient.builder(), endpoint).build();
        }
        return sync;
    }

    synchronized DynamoDbAsyncClient async() {
        if (async == null) {
            async = configure(DynamoDbAsyncClient.builder(), endpoint).build();
        }
        return async;
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable client : new AutoCloseable[] {sync, async}) {
            if (client != null) {
                try {
                    client.close();
                } catch (Exception e) {
                    // a client that fails to close holds nothing the container needs back
                }
            }
        }
        sync = null;
        async = null;
    }
}
