package dev.kumiko.faults.workload;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The SDK clients of a run: one per server, no retries (every outcome is recorded as it came). */
public final class Clients {
    private Clients() {}

    /**
     * A client of one server whose every call ends within {@code callTimeoutMillis}: a paused or dead
     * server turns into unknown outcomes, never into a stuck workload thread.
     */
    public static DynamoDbClient of(URI endpoint, long callTimeoutMillis) {
        Duration timeout = Duration.ofMillis(callTimeoutMillis);
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("faults", "faults")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(timeout)
                        .socketTimeout(timeout)
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallTimeout(timeout)
                        .build())
                .build();
    }
}
