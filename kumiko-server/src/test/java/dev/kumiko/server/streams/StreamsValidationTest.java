package dev.kumiko.server.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.WireProtocolTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The Streams API's refusals, and its answers as raw JSON (member names and nesting). */
class StreamsValidationTest {
    private static final String TABLE = "validated";
    private static TestServer server;
    private static DynamoDbStreamsClient streams;
    private static String arn;
    private static String shard;
    /** Kinesis's observed wording for the rule, with DynamoDB Streams' member name (UNVERIFIED). */
    private static final String ITERATOR_TYPE_RULE = "Must either specify (1) AT_SEQUENCE_NUMBER or "
            + "AFTER_SEQUENCE_NUMBER and SequenceNumber or (2) TRIM_HORIZON or LATEST and no SequenceNumber. ";

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        streams = StreamsClients.of(server);
        StreamsTest.createTable(server.client(), TABLE, StreamViewType.NEW_AND_OLD_IMAGES);
        server.client().putItem(b -> b.tableName(TABLE).item(StreamsTest.item("a", "1")));
        arn = StreamsClients.streamArn(server, TABLE);
        shard = StreamsClients.shards(streams, arn).get(0).shardId();
    }

    @AfterAll
    static void stop() {
        streams.close();
        server.close();
    }

    private static void assertValidation(Runnable call, String message) {
        assertThatThrownBy(call::run).isInstanceOf(DynamoDbException.class).satisfies(e -> {
            assertThat(((DynamoDbException) e).awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            assertThat(((DynamoDbException) e).awsErrorDetails().errorMessage()).isEqualTo(message);
        });
    }

    @Test
    void memberConstraints() {
        assertValidation(
                () -> streams.describeStream(b -> b.limit(0)),
                "2 validation errors detected: Value null at "
                        + "'streamArn' failed to satisfy constraint: Member must not be null; Value '0' at 'limit' failed to "
                        + "satisfy constraint: Member must have value greater than or equal to 1");
        assertValidation(
                () -> streams.getShardIterator(
                        b -> b.streamArn(arn).shardId(shard).shardIteratorType("SOMEWHERE")),
                "1 validation error detected: Value 'SOMEWHERE' at "
                        + "'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: "
                        + "[TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]");
        assertValidation(
                () -> streams.getRecords(b -> b.shardIterator("x").limit(1001)),
                "1 validation error "
                        + "detected: Value '1001' at 'limit' failed to satisfy constraint: Member must have value less than "
                        + "or equal to 1000");
        assertValidation(
                () -> streams.listStreams(b -> b.limit(101)),
                "1 validation error detected: Value '101' at "
                        + "'limit' failed to satisfy constraint: Member must have value less than or equal to 100");
    }

    @Test
    void sequenceNumbersAndIteratorsThatAreNotOurs() {
        assertValidation(
                () -> streams.getShardIterator(
                        b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)),
                ITERATOR_TYPE_RULE + "Request specified AT_SEQUENCE_NUMBER and no SequenceNumber.");
        String far = "199999999999999999999";
        assertValidation(
                () -> streams.getShardIterator(b -> b.streamArn(arn)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                        .sequenceNumber(far)),
                "Invalid SequenceNumber " + far + " for shard " + shard);
        assertValidation(() -> streams.getRecords(b -> b.shardIterator("not an iterator")), "Invalid ShardIterator");
        assertValidation(
                () -> streams.describeStream(
                        b -> b.streamArn("arn:aws:dynamodb:us-east-1:000000000000:" + "table/" + TABLE)),
                "Invalid StreamArn");
    }

    @Test
    void trimHorizonAndLatestTakeNoSequenceNumber() {
        String first =
                StreamsClients.shards(streams, arn).get(0).sequenceNumberRange().startingSequenceNumber();
        assertValidation(
                () -> streams.getShardIterator(b -> b.streamArn(arn)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON)
                        .sequenceNumber(first)),
                ITERATOR_TYPE_RULE + "Request specified TRIM_HORIZON and also a SequenceNumber.");
        // Judged from the request alone, before the stream is looked up.
        String gone = arn.substring(0, arn.lastIndexOf('/') + 1) + "2000-01-01T00:00:00.000";
        assertValidation(
                () -> streams.getShardIterator(b -> b.streamArn(gone)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.LATEST)
                        .sequenceNumber(first)),
                ITERATOR_TYPE_RULE + "Request specified LATEST and also a SequenceNumber.");
        streams.getShardIterator(b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.LATEST));
    }

    @Test
    void aMissingTableHasNoStreams() {
        assertThatThrownBy(() -> streams.listStreams(b -> b.tableName("nosuchtable")))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void rawAnswersUseTheApiReferencesMemberNames() {
        String iterator = StreamsClients.iterator(streams, arn, shard, ShardIteratorType.TRIM_HORIZON);
        HttpResponse<byte[]> r = post("GetRecords", "{\"ShardIterator\":\"" + iterator + "\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Object> body = JsonTree.parseObject(r.body(), 0, r.body().length);
        assertThat(body).containsOnlyKeys("Records", "NextShardIterator");
        @SuppressWarnings("unchecked")
        Map<String, Object> record = (Map<String, Object>) ((List<Object>) body.get("Records")).get(0);
        assertThat(record)
                .containsOnlyKeys("eventID", "eventName", "eventVersion", "eventSource", "awsRegion", "dynamodb");
        @SuppressWarnings("unchecked")
        Map<String, Object> dynamodb = (Map<String, Object>) record.get("dynamodb");
        assertThat(dynamodb)
                .containsOnlyKeys(
                        "ApproximateCreationDateTime",
                        "Keys",
                        "NewImage",
                        "SequenceNumber",
                        "SizeBytes",
                        "StreamViewType");
        assertThat((String) body.get("NextShardIterator")).startsWith(arn + "|1|");
    }

    @Test
    void anUnknownStreamsOperationIsUnknown() {
        HttpResponse<byte[]> r = post("PutRecord", "{}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JsonTree.parseObject(r.body(), 0, r.body().length))
                .containsEntry("__type", "com.amazon.coral.service#UnknownOperationException");
    }

    private static HttpResponse<byte[]> post(String operation, String body) {
        HttpRequest req = HttpRequest.newBuilder(server.endpoint())
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "DynamoDBStreams_20120810." + operation)
                .header("Authorization", WireProtocolTest.AUTH)
                .build();
        try {
            return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
