package dev.kumiko.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ExportType;
import software.amazon.awssdk.services.dynamodb.model.ExportViewType;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * INCREMENTAL_EXPORT through the SDK v2 to a {@code file:} directory: the changes between two times,
 * one line per changed item, read back from the gzip'd data files. The server's minimum period is
 * lowered to one second (DynamoDB's is 15 minutes) so the test need not wait.
 */
@Timeout(120)
class IncrementalExportTest {
    static final long PERIOD_MIN_MILLIS = 1_000;
    static final long JOB_TIMEOUT_MILLIS = 60_000;

    @TempDir
    static Path tmp;

    static TestServer server;
    static DynamoDbClient ddb;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        ExchangeService.start(
                server.engine(),
                ExchangeSettings.defaults()
                        .withImportLogDir(tmp.resolve("logs"))
                        .withIncrementalPeriodMinMillis(PERIOD_MIN_MILLIS));
        ddb = server.client();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** The period, the changes in it, and what lies outside it, written once for the tests below. */
    record Written(Instant from, Instant to) {}

    static Written written;

    static synchronized Written writeChanges() throws InterruptedException {
        if (written != null) {
            return written;
        }
        createTable("changes", true);
        put(1, "v0");
        put(2, "v0");
        put(3, "v0");
        Thread.sleep(1_100);
        Instant from = Instant.ofEpochMilli(System.currentTimeMillis());
        Thread.sleep(20);
        put(2, "v1");
        ddb.deleteItem(r -> r.tableName("changes").key(key(3)));
        put(4, "v1");
        put(5, "v1");
        ddb.deleteItem(r -> r.tableName("changes").key(key(5)));
        ddb.updateItem(r -> r.tableName("changes")
                .key(key(2))
                .updateExpression("SET v = :v, extra = :e")
                .expressionAttributeValues(Map.of(":v", s("v2"), ":e", AttributeValue.fromN("7"))));
        Thread.sleep(1_100);
        Instant to = Instant.ofEpochMilli(System.currentTimeMillis());
        Thread.sleep(20);
        put(1, "after"); // at or after ExportToTime: not exported
        put(6, "after");
        Thread.sleep(1_500); // the recovery window's newest time lies a second behind now
        written = new Written(from, to);
        return written;
    }

    @Test
    void exportsEachChangedItemOnceWithItsOldAndNewImage() throws Exception {
        Written w = writeChanges();
        Path dir = tmp.resolve("json");
        ExportDescription started = ddb.exportTableToPointInTime(r -> r.tableArn(arn("changes"))
                        .s3Bucket("file:" + dir)
                        .exportType(ExportType.INCREMENTAL_EXPORT)
                        .incrementalExportSpecification(
                                i -> i.exportFromTime(w.from()).exportToTime(w.to())))
                .exportDescription();
        assertThat(started.exportType()).isEqualTo(ExportType.INCREMENTAL_EXPORT);
        assertThat(started.incrementalExportSpecification().exportViewType())
                .as("DynamoDB's default view type")
                .isEqualTo(ExportViewType.NEW_AND_OLD_IMAGES);
        ExportDescription done = awaitExport(started.exportArn());
        assertThat(done.exportStatus()).as(done.failureMessage()).isEqualTo(ExportStatus.COMPLETED);
        assertThat(done.incrementalExportSpecification().exportFromTime()).isEqualTo(w.from());
        assertThat(done.incrementalExportSpecification().exportToTime()).isEqualTo(w.to());
        assertThat(done.exportTime())
                .as("an incremental export has a period, not an ExportTime")
                .isNull();
        assertThat(done.itemCount()).as("items 2, 3, 4 and 5").isEqualTo(4L);

        Map<String, Map<String, Object>> lines = jsonLinesBySk(dir, done);
        assertThat(lines).containsOnlyKeys("2", "3", "4", "5");
        for (Map<String, Object> line : lines.values()) {
            long micros = Long.parseLong(string(line, "Metadata", "WriteTimestampMicros", "N"));
            assertThat(micros).isBetween(w.from().toEpochMilli() * 1000, w.to().toEpochMilli() * 1000 - 1);
        }
        Map<String, Object> updated = lines.get("2");
        assertThat(updated).containsOnlyKeys("Metadata", "Keys", "OldImage", "NewImage");
        assertThat(object(updated, "Keys")).containsOnlyKeys("pk", "sk");
        assertThat(string(updated, "OldImage", "v", "S")).isEqualTo("v0");
        assertThat(object(updated, "OldImage")).doesNotContainKey("extra");
        assertThat(string(updated, "NewImage", "v", "S"))
                .as("the last of two writes")
                .isEqualTo("v2");
        assertThat(string(updated, "NewImage", "extra", "N")).isEqualTo("7");
        Map<String, Object> deleted = lines.get("3");
        assertThat(deleted).containsOnlyKeys("Metadata", "Keys", "OldImage");
        assertThat(string(deleted, "OldImage", "v", "S")).isEqualTo("v0");
        Map<String, Object> inserted = lines.get("4");
        assertThat(inserted).containsOnlyKeys("Metadata", "Keys", "NewImage");
        assertThat(string(inserted, "NewImage", "v", "S")).isEqualTo("v1");
        assertThat(lines.get("5")).as("created and deleted inside the period").containsOnlyKeys("Metadata", "Keys");

        Map<String, Object> summary = parse(Files.readAllBytes(dir.resolve(done.exportManifest())));
        assertThat(summary.get("exportType")).isEqualTo("INCREMENTAL_EXPORT");
        assertThat(summary.get("itemCount")).isEqualTo(new JsonNumber("4"));
        assertThat(summary.get("exportFromTime")).isEqualTo(w.from().toString());
    }

    @Test
    void exportsNewImagesOnlyInIon() throws Exception {
        Written w = writeChanges();
        Path dir = tmp.resolve("ion");
        ExportDescription done = awaitExport(ddb.exportTableToPointInTime(r -> r.tableArn(arn("changes"))
                        .s3Bucket("file:" + dir)
                        .exportType(ExportType.INCREMENTAL_EXPORT)
                        .exportFormat(ExportFormat.ION)
                        .incrementalExportSpecification(i -> i.exportFromTime(w.from())
                                .exportToTime(w.to())
                                .exportViewType(ExportViewType.NEW_IMAGE)))
                .exportDescription()
                .exportArn());
        assertThat(done.exportStatus()).as(done.failureMessage()).isEqualTo(ExportStatus.COMPLETED);
        assertThat(done.incrementalExportSpecification().exportViewType()).isEqualTo(ExportViewType.NEW_IMAGE);
        List<String> lines = dataLines(dir, done);
        assertThat(lines)
                .hasSize(4)
                .allSatisfy(line -> assertThat(line)
                        .startsWith("$ion_1_0 {Metadata:{WriteTimestampMicros:")
                        .doesNotContain("OldImage"));
        assertThat(lines)
                .filteredOn(l -> l.contains("sk:2."))
                .singleElement()
                .satisfies(l -> assertThat(l)
                        .contains("NewImage:{")
                        .contains("v:\"v2\"")
                        .contains("extra:7."));
        assertThat(lines)
                .filteredOn(l -> l.contains("sk:3."))
                .singleElement()
                .satisfies(l -> assertThat(l).as("a deleted item: keys only").doesNotContain("NewImage"));
    }

    @Test
    void checksThePeriodAndTheTable() throws Exception {
        Written w = writeChanges();
        createTable("nopitr", false);
        assertError(
                r -> r.tableArn(arn("changes")),
                "ValidationException",
                "IncrementalExportSpecification.ExportFromTime is required");
        assertError(
                r -> r.tableArn(arn("changes"))
                        .incrementalExportSpecification(i ->
                                i.exportFromTime(w.from()).exportToTime(w.from().plusMillis(PERIOD_MIN_MILLIS - 1))),
                "ValidationException",
                "must be at least 1000 milliseconds");
        assertError(
                r -> r.tableArn(arn("changes"))
                        .incrementalExportSpecification(i -> i.exportFromTime(w.to().minus(Duration.ofHours(25)))
                                .exportToTime(w.to())),
                "ValidationException",
                "must be at most 24 hours");
        assertError(
                r -> r.tableArn(arn("changes"))
                        .incrementalExportSpecification(
                                i -> i.exportFromTime(w.to()).exportToTime(w.from())),
                "ValidationException",
                "ExportFromTime must be before ExportToTime");
        assertError(
                r -> r.tableArn(arn("changes"))
                        .incrementalExportSpecification(
                                i -> i.exportFromTime(w.from().minus(Duration.ofHours(1)))
                                        .exportToTime(w.to())),
                "InvalidExportTimeException",
                "outside of the point in time recovery window");
        assertError(
                r -> r.tableArn(arn("changes"))
                        .incrementalExportSpecification(i -> i.exportFromTime(w.from())
                                .exportToTime(Instant.now().plusSeconds(60))),
                "InvalidExportTimeException",
                "in the future");
        assertError(
                r -> r.tableArn(arn("changes"))
                        .incrementalExportSpecification(
                                i -> i.exportFromTime(w.from()).exportViewType("OLD_IMAGE")),
                "ValidationException",
                "Value 'OLD_IMAGE' at "
                        + "'incrementalExportSpecification.exportViewType' failed to satisfy constraint: Member must satisfy "
                        + "enum value set: [NEW_IMAGE, NEW_AND_OLD_IMAGES]");
        assertError(
                r -> r.tableArn(arn("nopitr")).incrementalExportSpecification(i -> i.exportFromTime(w.from())),
                "PointInTimeRecoveryUnavailableException",
                "not enabled");
        assertThatThrownBy(() -> ddb.exportTableToPointInTime(r -> r.tableArn(arn("changes"))
                        .s3Bucket("file:" + tmp.resolve("x"))
                        .incrementalExportSpecification(i -> i.exportFromTime(w.from()))))
                .as("a FULL_EXPORT with an IncrementalExportSpecification")
                .isInstanceOfSatisfying(
                        DynamoDbException.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));
    }

    // --- fixtures -----------------------------------------------------------------------------

    interface RequestShape
            extends java.util.function.Consumer<
                    software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeRequest.Builder> {}

    static void assertError(RequestShape shape, String code, String message) {
        assertThatThrownBy(() -> ddb.exportTableToPointInTime(r -> {
                    r.s3Bucket("file:" + tmp.resolve("refused")).exportType(ExportType.INCREMENTAL_EXPORT);
                    shape.accept(r);
                }))
                .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorMessage()).contains(message);
                });
    }

    static void createTable(String name, boolean pitr) {
        ddb.createTable(r -> r.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        if (pitr) {
            ddb.updateContinuousBackups(
                    r -> r.tableName(name).pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        }
    }

    static void put(int i, String v) {
        Map<String, AttributeValue> item = new HashMap<>(key(i));
        item.put("v", s(v));
        ddb.putItem(r -> r.tableName("changes").item(item));
    }

    static Map<String, AttributeValue> key(int i) {
        return Map.of("pk", s("p"), "sk", AttributeValue.fromN(String.valueOf(i)));
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static String arn(String table) {
        return "arn:aws:dynamodb:us-east-1:000000000000:table/" + table;
    }

    static ExportDescription awaitExport(String arn) throws InterruptedException {
        long deadline = System.currentTimeMillis() + JOB_TIMEOUT_MILLIS;
        while (true) {
            ExportDescription d = ddb.describeExport(r -> r.exportArn(arn)).exportDescription();
            if (d.exportStatus() != ExportStatus.IN_PROGRESS || System.currentTimeMillis() > deadline) {
                return d;
            }
            Thread.sleep(50);
        }
    }

    /** Every line of every data file the export's manifest-files.json names. */
    static List<String> dataLines(Path dir, ExportDescription done) throws IOException {
        Path folder = dir.resolve(done.exportManifest()).getParent();
        List<String> lines = new ArrayList<>();
        for (String entry : Files.readAllLines(folder.resolve("manifest-files.json"))) {
            String key = (String) parse(entry.getBytes(StandardCharsets.UTF_8)).get("dataFileS3Key");
            byte[] gz = Files.readAllBytes(dir.resolve(key));
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                text.lines().filter(l -> !l.isEmpty()).forEach(lines::add);
            }
        }
        return lines;
    }

    static Map<String, Map<String, Object>> jsonLinesBySk(Path dir, ExportDescription done) throws IOException {
        Map<String, Map<String, Object>> bySk = new HashMap<>();
        for (String line : dataLines(dir, done)) {
            Map<String, Object> parsed = parse(line.getBytes(StandardCharsets.UTF_8));
            assertThat(bySk.put(string(parsed, "Keys", "sk", "N"), parsed))
                    .as("one line per item")
                    .isNull();
        }
        return bySk;
    }

    static Map<String, Object> parse(byte[] json) {
        return JsonTree.parseObject(json, 0, json.length);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> m, String member) {
        return (Map<String, Object>) m.get(member);
    }

    static String string(Map<String, Object> m, String... path) {
        Map<String, Object> at = m;
        for (int i = 0; i < path.length - 1; i++) {
            at = object(at, path[i]);
        }
        return (String) at.get(path[path.length - 1]);
    }
}
