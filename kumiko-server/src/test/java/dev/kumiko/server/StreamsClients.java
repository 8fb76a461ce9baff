package dev.kumiko.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The AWS SDK v2 DynamoDB Streams client against a test server, and reading helpers. */
public final class StreamsClients {
    private StreamsClients() {}

    public static DynamoDbStreamsClient of(TestServer server) {
        return of(server, "us-east-1");
    }

    public static DynamoDbStreamsClient of(TestServer server, String region) {
        return of(server, region, AwsBasicCredentials.create("dummy", "dummy"));
    }

    public static DynamoDbStreamsClient of(TestServer server, AwsCredentials credentials) {
        return of(server, "us-east-1", credentials);
    }

    public static DynamoDbStreamsClient of(TestServer server, String region, AwsCredentials credentials) {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(server.endpoint())
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

    /** The table's latest stream ARN, as DescribeTable shows it. */
    public static String streamArn(TestServer server, String table) {
        return server.client().describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    public static List<Shard> shards(DynamoDbStreamsClient streams, String streamArn) {
        return streams.describeStream(b -> b.streamArn(streamArn))
                .streamDescription()
                .shards();
    }

    public static String iterator(
            DynamoDbStreamsClient streams, String streamArn, String shardId, ShardIteratorType type) {
        return streams.getShardIterator(
                        b -> b.streamArn(streamArn).shardId(shardId).shardIteratorType(type))
                .shardIterator();
    }

    /** Every record of the stream still in its shards, oldest shard first, read to what is there now. */
    public static List<Record> all(DynamoDbStreamsClient streams, String streamArn) {
        List<Record> out = new ArrayList<>();
        for (Shard shard : shards(streams, streamArn)) {
            out.addAll(drain(streams, iterator(streams, streamArn, shard.shardId(), ShardIteratorType.TRIM_HORIZON)));
        }
        return out;
    }

    /** Reads from an iterator until a call returns no record (or the shard ends). */
    public static List<Record> drain(DynamoDbStreamsClient streams, String iterator) {
        List<Record> out = new ArrayList<>();
        String it = iterator;
        while (it != null) {
            String current = it;
            GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(current));
            out.addAll(r.records());
            if (r.records().isEmpty()) {
                break;
            }
            it = r.nextShardIterator();
        }
        return out;
    }
}
