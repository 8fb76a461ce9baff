package dev.kumiko.server.kinesis;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.protocol.Fields;
import dev.kumiko.storage.memory.MemoryStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ApproximateCreationDateTimePrecision;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DestinationStatus;
import software.amazon.awssdk.services.dynamodb.model.EnableKinesisStreamingConfiguration;
import software.amazon.awssdk.services.dynamodb.model.EnableKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KinesisDataStreamDestination;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.UpdateKinesisStreamingConfiguration;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Kinesis streaming destinations end to end: the AWS SDK drives Kumiko, Kumiko ships to a real
 * kinesalite, and the test reads the stream back: the lifecycle, each refusal, the records of
 * INSERT, MODIFY and REMOVE with their images, the precision, and a restart over RocksDB.
 */
class KinesisDestinationTest {
    static final long DEADLINE_MILLIS = 30_000;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    static Path tmp;

    static KinesaliteProcess kinesis;
    static TestServer server;
    static DynamoDbClient ddb;

    @BeforeAll
    static void start() throws Exception {
        kinesis = new KinesaliteProcess(tmp.resolve("kinesalite.log"));
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        configure(server, kinesis.endpoint());
        ddb = server.client();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (kinesis != null) {
            kinesis.close();
        }
    }

    static void configure(TestServer s, URI endpoint) {
        s.engine().kinesis().configure(new HttpKinesisLink(endpoint, "us-east-1", null));
    }

    static String unique(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet();
    }

    static void createTable(DynamoDbClient client, String name) {
        client.createTable(b -> b.tableName(name)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    static KinesisDataStreamDestination destination(DynamoDbClient client, String table, String arn) {
        return client
                .describeKinesisStreamingDestination(b -> b.tableName(table))
                .kinesisDataStreamDestinations()
                .stream()
                .filter(d -> d.streamArn().equals(arn))
                .findFirst()
                .orElseThrow();
    }

    static void awaitStatus(DynamoDbClient client, String table, String arn, DestinationStatus status)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
        while (destination(client, table, arn).destinationStatus() != status) {
            assertThat(System.currentTimeMillis())
                    .as("destination " + arn + " of " + table + " reaches " + status + ", now "
                            + destination(client, table, arn).destinationStatus())
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** The stream's records once it has at least n. */
    static List<KinesaliteProcess.Received> awaitRecords(String stream, int n) throws Exception {
        long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
        while (true) {
            List<KinesaliteProcess.Received> records = kinesis.records(stream);
            if (records.size() >= n) {
                return records;
            }
            assertThat(System.currentTimeMillis())
                    .as(stream + " gets " + n + " records, has " + records.size())
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> dynamodb(KinesaliteProcess.Received r) {
        return (Map<String, Object>) Objects.requireNonNull(r.data().get("dynamodb"));
    }

    static Object attribute(Map<String, Object> image, String name, String type) {
        return Fields.objectValue(Objects.requireNonNull(image.get(name), name)).get(type);
    }

    @Test
    void changesReachTheStreamAsDynamoDbWritesThem() throws Exception {
        String table = unique("kinesis-records");
        String stream = unique("records");
        String arn = KinesaliteProcess.arn(stream);
        kinesis.createStream(stream, 2);
        createTable(ddb, table);

        EnableKinesisStreamingDestinationResponse enabled =
                ddb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        assertThat(enabled.tableName()).isEqualTo(table);
        assertThat(enabled.streamArn()).isEqualTo(arn);
        assertThat(enabled.destinationStatus()).isEqualTo(DestinationStatus.ENABLING);
        awaitStatus(ddb, table, arn, DestinationStatus.ACTIVE);
        assertThat(destination(ddb, table, arn).approximateCreationDateTimePrecision())
                .isEqualTo(ApproximateCreationDateTimePrecision.MICROSECOND);

        long beforeMillis = System.currentTimeMillis();
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "v", s("one"))));
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "v", s("two"))));
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("b"), "n", AttributeValue.fromN("7"))));
        ddb.deleteItem(b -> b.tableName(table).key(Map.of("pk", s("a"))));
        long afterMillis = System.currentTimeMillis();

        List<KinesaliteProcess.Received> records = awaitRecords(stream, 4);
        assertThat(records).hasSize(4);
        List<KinesaliteProcess.Received> ofA = records.stream()
                .filter(r -> "a".equals(attribute(Fields.objectValue(dynamodb(r).get("Keys")), "pk", "S")))
                .toList();
        assertThat(ofA).extracting(r -> r.data().get("eventName")).containsExactly("INSERT", "MODIFY", "REMOVE");
        // Every change of one item has one partition key, so they stay in order in one shard.
        assertThat(ofA)
                .extracting(KinesaliteProcess.Received::partitionKey)
                .containsOnly(ofA.get(0).partitionKey());

        for (KinesaliteProcess.Received r : records) {
            Map<String, Object> data = r.data();
            assertThat(data.get("awsRegion")).isEqualTo("us-east-1");
            assertThat(data.get("tableName")).isEqualTo(table);
            assertThat(data.get("recordFormat")).isEqualTo("application/json");
            assertThat(data.get("eventSource")).isEqualTo("aws:dynamodb");
            assertThat(data).containsKey("userIdentity");
            assertThat(data.get("userIdentity")).isEqualTo(dev.kumiko.server.json.JsonNull.INSTANCE); // JSON null
            assertThat((String) data.get("eventID")).hasSize(36);
            Map<String, Object> d = dynamodb(r);
            assertThat(d.get("ApproximateCreationDateTimePrecision")).isEqualTo("MICROSECOND");
            long micros = Objects.requireNonNull(Fields.longValue(d, "ApproximateCreationDateTime"));
            assertThat(micros).isBetween(beforeMillis * 1000, afterMillis * 1000);
            assertThat(Objects.requireNonNull(Fields.longValue(d, "SizeBytes"))).isPositive();
        }
        Map<String, Object> insert = dynamodb(ofA.get(0));
        assertThat(attribute(Fields.objectValue(insert.get("NewImage")), "v", "S"))
                .isEqualTo("one");
        assertThat(insert).doesNotContainKey("OldImage");
        Map<String, Object> modify = dynamodb(ofA.get(1));
        assertThat(attribute(Fields.objectValue(modify.get("NewImage")), "v", "S"))
                .isEqualTo("two");
        assertThat(attribute(Fields.objectValue(modify.get("OldImage")), "v", "S"))
                .isEqualTo("one");
        Map<String, Object> remove = dynamodb(ofA.get(2));
        assertThat(remove).doesNotContainKey("NewImage");
        assertThat(attribute(Fields.objectValue(remove.get("OldImage")), "v", "S"))
                .isEqualTo("two");
        // DynamoDB's SizeBytes: keys and images, as a stream record of both images counts them.
        assertThat(Objects.requireNonNull(Fields.longValue(modify, "SizeBytes")))
                .isEqualTo(2 + 1 + (2 + 1 + 1 + 3) * 2);
    }

    @Test
    void aStreamOfAnotherViewStillShowsOnlyWhatItsViewAsks() throws Exception {
        String table = unique("kinesis-view");
        String stream = unique("view");
        String arn = KinesaliteProcess.arn(stream);
        kinesis.createStream(stream, 1);
        ddb.createTable(b -> b.tableName(table)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(x -> x.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
        ddb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        awaitStatus(ddb, table, arn, DestinationStatus.ACTIVE);
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("k"), "v", s("1"))));
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("k"), "v", s("2"))));

        // Kinesis gets both images of the MODIFY; the NEW_IMAGE stream only the new one.
        Map<String, Object> modify = dynamodb(awaitRecords(stream, 2).get(1));
        assertThat(attribute(Fields.objectValue(modify.get("OldImage")), "v", "S"))
                .isEqualTo("1");
        try (DynamoDbStreamsClient streams = StreamsClients.of(server)) {
            List<Record> records = StreamsClients.all(streams, StreamsClients.streamArn(server, table));
            assertThat(records).hasSize(2);
            assertThat(records.get(1).dynamodb().newImage()).containsEntry("v", s("2"));
            assertThat(records.get(1).dynamodb().hasOldImage()).isFalse();
        }
    }

    @Test
    void theLifecycleGoesThroughUpdatingAndDisabling() throws Exception {
        String table = unique("kinesis-life");
        String stream = unique("life");
        String other = unique("life-other");
        String arn = KinesaliteProcess.arn(stream);
        String otherArn = KinesaliteProcess.arn(other);
        kinesis.createStream(stream, 1);
        kinesis.createStream(other, 1);
        createTable(ddb, table);
        assertThat(ddb.describeKinesisStreamingDestination(b -> b.tableName(table))
                        .kinesisDataStreamDestinations())
                .isEmpty();

        EnableKinesisStreamingDestinationResponse enabled =
                ddb.enableKinesisStreamingDestination(b -> b.tableName(table)
                        .streamArn(arn)
                        .enableKinesisStreamingConfiguration(EnableKinesisStreamingConfiguration.builder()
                                .approximateCreationDateTimePrecision(ApproximateCreationDateTimePrecision.MILLISECOND)
                                .build()));
        assertThat(enabled.enableKinesisStreamingConfiguration().approximateCreationDateTimePrecision())
                .isEqualTo(ApproximateCreationDateTimePrecision.MILLISECOND);
        awaitStatus(ddb, table, arn, DestinationStatus.ACTIVE);
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("m"))));
        assertThat(dynamodb(awaitRecords(stream, 1).get(0)).get("ApproximateCreationDateTimePrecision"))
                .isEqualTo("MILLISECOND");

        var updated = ddb.updateKinesisStreamingDestination(b -> b.tableName(table)
                .streamArn(arn)
                .updateKinesisStreamingConfiguration(UpdateKinesisStreamingConfiguration.builder()
                        .approximateCreationDateTimePrecision(ApproximateCreationDateTimePrecision.MICROSECOND)
                        .build()));
        assertThat(updated.destinationStatus()).isEqualTo(DestinationStatus.UPDATING);
        assertThat(updated.updateKinesisStreamingConfiguration().approximateCreationDateTimePrecision())
                .isEqualTo(ApproximateCreationDateTimePrecision.MICROSECOND);
        awaitStatus(ddb, table, arn, DestinationStatus.ACTIVE);
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("u"))));
        List<KinesaliteProcess.Received> two = awaitRecords(stream, 2);
        assertThat(dynamodb(two.get(1)).get("ApproximateCreationDateTimePrecision"))
                .isEqualTo("MICROSECOND");

        var disabled =
                ddb.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        assertThat(disabled.destinationStatus()).isEqualTo(DestinationStatus.DISABLING);
        awaitStatus(ddb, table, arn, DestinationStatus.DISABLED);
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("after-disable"))));

        // Another stream now, which gets the next change; the disabled one got nothing more.
        ddb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(otherArn));
        awaitStatus(ddb, table, otherArn, DestinationStatus.ACTIVE);
        ddb.putItem(b -> b.tableName(table).item(Map.of("pk", s("other"))));
        List<KinesaliteProcess.Received> ofOther = awaitRecords(other, 1);
        assertThat(ofOther).hasSize(1);
        assertThat(kinesis.records(stream)).hasSize(2);
        assertThat(ddb.describeKinesisStreamingDestination(b -> b.tableName(table))
                        .kinesisDataStreamDestinations())
                .extracting(KinesisDataStreamDestination::streamArn, KinesisDataStreamDestination::destinationStatus)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(arn, DestinationStatus.DISABLED),
                        org.assertj.core.groups.Tuple.tuple(otherArn, DestinationStatus.ACTIVE));
    }

    @Test
    void aStreamThatDoesNotExistFailsToEnable() throws Exception {
        String table = unique("kinesis-missing");
        String arn = KinesaliteProcess.arn(unique("no-such-stream"));
        createTable(ddb, table);
        ddb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        awaitStatus(ddb, table, arn, DestinationStatus.ENABLE_FAILED);
        assertThat(destination(ddb, table, arn).destinationStatusDescription())
                .isEqualTo("The Kinesis data stream " + arn + " was not found at the Kinesis endpoint");
        // A failed destination can be disabled no more than updated; it can be enabled again.
        assertValidation(
                () -> ddb.disableKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn(arn)),
                "Table " + table + " is not streaming to the Kinesis data stream " + arn);
        assertThat(ddb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn))
                        .destinationStatus())
                .isEqualTo(DestinationStatus.ENABLING);
    }

    @Test
    void refusals() throws Exception {
        String table = unique("kinesis-errors");
        String stream = unique("errors");
        String arn = KinesaliteProcess.arn(stream);
        kinesis.createStream(stream, 1);
        createTable(ddb, table);

        assertError(
                () -> ddb.enableKinesisStreamingDestination(
                        b -> b.tableName("no-such-table").streamArn(arn)),
                "ResourceNotFoundException",
                "Requested resource not found: Table: no-such-table not found");
        assertError(
                () -> ddb.describeKinesisStreamingDestination(b -> b.tableName("no-such-table")),
                "ResourceNotFoundException",
                "Requested resource not found: Table: no-such-table not found");
        assertValidation(
                () -> ddb.enableKinesisStreamingDestination(b -> b.tableName(table)
                        .streamArn(arn)
                        .enableKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("SECOND"))),
                "1 validation error detected: Value 'SECOND' at "
                        + "'enableKinesisStreamingConfiguration.approximateCreationDateTimePrecision' failed to "
                        + "satisfy constraint: Member must satisfy enum value set: [MILLISECOND, MICROSECOND]");
        assertValidation(
                () -> ddb.enableKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn("arn:short")),
                "1 validation error detected: Value 'arn:short' at 'streamArn' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 37");
        String notKinesis = "arn:aws:dynamodb:us-east-1:000000000000:table/" + table;
        assertValidation(
                () -> ddb.enableKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn(notKinesis)),
                "Invalid StreamArn: " + notKinesis + " is not the ARN of a Kinesis data stream");
        assertValidation(
                () -> ddb.disableKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn(arn)),
                "Table " + table + " is not streaming to the Kinesis data stream " + arn);

        ddb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        assertError(
                () -> ddb.enableKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn(arn)),
                "ResourceInUseException",
                "Table " + table + " is already streaming to the Kinesis data stream " + arn);
        String second = KinesaliteProcess.arn(unique("second"));
        assertError(
                () -> ddb.enableKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn(second)),
                "LimitExceededException",
                "Table " + table + " already streams to the Kinesis data stream " + arn + "; disable it first");
        awaitStatus(ddb, table, arn, DestinationStatus.ACTIVE);
        assertValidation(
                () -> ddb.updateKinesisStreamingDestination(
                        b -> b.tableName(table).streamArn(arn)),
                "UpdateKinesisStreamingConfiguration.ApproximateCreationDateTimePrecision is required");
        assertValidation(
                () -> ddb.updateKinesisStreamingDestination(b -> b.tableName(table)
                        .streamArn(arn)
                        .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision(
                                ApproximateCreationDateTimePrecision.MICROSECOND))),
                "The ApproximateCreationDateTimePrecision of the Kinesis streaming destination " + arn
                        + " is already MICROSECOND");
        assertValidation(
                () -> ddb.updateKinesisStreamingDestination(b -> b.tableName(table)
                        .streamArn(second)
                        .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision(
                                ApproximateCreationDateTimePrecision.MILLISECOND))),
                "Table " + table + " is not streaming to the Kinesis data stream " + second);
        ddb.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        awaitStatus(ddb, table, arn, DestinationStatus.DISABLED);
    }

    @Test
    void withoutAKinesisEndpointEnablingIsRefused() {
        // A store of its own: over a shared suite store (Ignite) a second server would empty the class's.
        try (TestServer plain = TestServer.start(new MemoryStore(), ServerLimits.DEFAULTS)) {
            String table = unique("kinesis-unconfigured");
            createTable(plain.client(), table);
            String arn = KinesaliteProcess.arn("anything");
            assertValidation(
                    () -> plain.client()
                            .enableKinesisStreamingDestination(
                                    b -> b.tableName(table).streamArn(arn)),
                    "This Kumiko server has no Kinesis endpoint configured: start it with --kinesis-endpoint URL "
                            + "to stream a table's changes to Kinesis");
            assertThat(plain.client()
                            .describeKinesisStreamingDestination(b -> b.tableName(table))
                            .kinesisDataStreamDestinations())
                    .isEmpty();
        }
    }

    @Test
    void aRestartOnRocksDbKeepsTheDestinationAndShipsOn() throws Exception {
        String table = unique("kinesis-restart");
        String stream = unique("restart");
        String arn = KinesaliteProcess.arn(stream);
        kinesis.createStream(stream, 1);
        try (TestServer durable = TestServer.start(TestServer.StoreKind.ROCKSDB)) {
            configure(durable, kinesis.endpoint());
            createTable(durable.client(), table);
            durable.client()
                    .enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
            awaitStatus(durable.client(), table, arn, DestinationStatus.ACTIVE);
            durable.client().putItem(b -> b.tableName(table).item(Map.of("pk", s("before"))));
            awaitRecords(stream, 1);

            durable.restart();
            configure(durable, kinesis.endpoint());
            assertThat(destination(durable.client(), table, arn).destinationStatus())
                    .isEqualTo(DestinationStatus.ACTIVE);
            durable.client().putItem(b -> b.tableName(table).item(Map.of("pk", s("after"))));
            List<KinesaliteProcess.Received> records = awaitRecords(stream, 2);
            // "before" may have gone twice if the restart came between PutRecords and saving the
            // position; a consumer tells the copies by their eventID, which is the same.
            assertThat(records.get(records.size() - 1).data().get("eventName")).isEqualTo("INSERT");
            assertThat(attribute(
                            Fields.objectValue(
                                    dynamodb(records.get(records.size() - 1)).get("Keys")),
                            "pk",
                            "S"))
                    .isEqualTo("after");
            assertThat(records.stream().map(r -> r.data().get("eventID")).distinct())
                    .hasSize(2);
        }
    }
}
