package dev.kumiko.faults.workload;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The SDK clients of a run: one per server, no retries (every outcome is recorded as it came). */
public final class Clients {
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("faults", "faults"));

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
                .credentialsProvider(CREDENTIALS)
                .httpClient(http(timeout))
                .overrideConfiguration(override(timeout))
                .build();
    }

    /** A DynamoDB Streams client of one server, bounded as {@link #of} is. */
    public static DynamoDbStreamsClient streamsOf(URI endpoint, long callTimeoutMillis) {
        Duration timeout = Duration.ofMillis(callTimeoutMillis);
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .httpClient(http(timeout))
                .overrideConfiguration(override(timeout))
                .build();
    }

    private static SdkHttpClient http(Duration timeout) {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(timeout)
                .socketTimeout(timeout)
                .build();
    }

    private static ClientOverrideConfiguration override(Duration timeout) {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.doNotRetry())
                .apiCallTimeout(timeout)
                .build();
    }
}
