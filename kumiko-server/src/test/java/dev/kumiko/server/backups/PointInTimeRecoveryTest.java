package dev.kumiko.server.backups;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.backups.BackupFixtures.awaitActive;
import static dev.kumiko.server.backups.BackupFixtures.createIndexedTable;
import static dev.kumiko.server.backups.BackupFixtures.item;
import static dev.kumiko.server.backups.BackupFixtures.put;
import static dev.kumiko.server.backups.BackupFixtures.scanAll;
import static dev.kumiko.server.backups.BackupFixtures.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsStatus;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Point-in-time recovery end to end: the window DescribeContinuousBackups reports, a restore to a
 * noted second giving exactly that second's items and index entries (across several base copies,
 * which this server takes every 300 ms), a restore to the latest time, and the errors.
 */
class PointInTimeRecoveryTest {
    /** Small, so that restores cross several base copies. */
    private static final long BASE_INTERVAL_MILLIS = 300;

    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(
                TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS.withBackupPacing(BASE_INTERVAL_MILLIS, 0));
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void enable(String table) {
        c.updateContinuousBackups(
                b -> b.tableName(table).pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
    }

    @Test
    void aRestoreToANotedTimeGivesExactlyThatTimesState() {
        createIndexedTable(c, "History");
        put(c, "History", item("before", "0", "red", 0)); // written before recovery was on: in the first base
        enable("History");
        for (int i = 0; i < 20; i++) {
            put(c, "History", item("p" + i % 3, "s" + i, "red", i));
        }
        sleep(2 * BASE_INTERVAL_MILLIS); // a base copy or two later
        c.updateItem(b -> b.tableName("History")
                .key(Fixtures.key("p1", "s1"))
                .updateExpression("SET color = :c")
                .expressionAttributeValues(Map.of(":c", Fixtures.s("blue"))));
        sleep(5);
        Instant noted = Instant.now();
        List<Map<String, AttributeValue>> items = scanAll(c, "History", null);
        List<Map<String, AttributeValue>> byColor = scanAll(c, "History", "byColor");
        List<Map<String, AttributeValue>> bySize = scanAll(c, "History", "bySize");
        sleep(2 * BASE_INTERVAL_MILLIS + 20);
        for (int i = 20; i < 30; i++) {
            put(c, "History", item("p" + i % 3, "s" + i, "green", i));
        }
        c.deleteItem(b -> b.tableName("History").key(Fixtures.key("p0", "s0")));
        c.deleteItem(b -> b.tableName("History").key(Fixtures.key("before", "0")));
        c.updateItem(b -> b.tableName("History")
                .key(Fixtures.key("p2", "s2"))
                .updateExpression("SET color = :c")
                .expressionAttributeValues(Map.of(":c", Fixtures.s("blue"))));
        sleep(1_100); // past LatestRestorableDateTime's lag

        TableDescription t = c.restoreTableToPointInTime(b -> b.sourceTableName("History")
                        .targetTableName("HistoryAtNoted")
                        .restoreDateTime(noted))
                .tableDescription();
        assertThat(t.tableStatus()).isEqualTo(TableStatus.CREATING);
        assertThat(t.restoreSummary().restoreInProgress()).isTrue();
        assertThat(t.restoreSummary().restoreDateTime())
                .isEqualTo(noted.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        assertThat(t.restoreSummary().sourceTableArn()).endsWith(":table/History");
        awaitActive(c, "HistoryAtNoted");
        assertThat(scanAll(c, "HistoryAtNoted", null)).isEqualTo(items);
        assertThat(scanAll(c, "HistoryAtNoted", "byColor")).isEqualTo(byColor);
        assertThat(scanAll(c, "HistoryAtNoted", "bySize")).isEqualTo(bySize);
        assertThat(c.describeTable(b -> b.tableName("HistoryAtNoted")).table().itemCount())
                .isEqualTo(items.size());

        List<Map<String, AttributeValue>> now = scanAll(c, "History", null);
        c.restoreTableToPointInTime(b -> b.sourceTableArn("arn:aws:dynamodb:us-east-1:000000000000:table/History")
                .targetTableName("HistoryLatest")
                .useLatestRestorableTime(true));
        awaitActive(c, "HistoryLatest");
        assertThat(scanAll(c, "HistoryLatest", null)).isEqualTo(now);
        assertThat(scanAll(c, "HistoryLatest", "byColor")).isEqualTo(scanAll(c, "History", "byColor"));
    }

    @Test
    void describeReportsTheWindow() {
        Fixtures.createTable(c, "Window");
        PointInTimeRecoveryDescription off = c.describeContinuousBackups(b -> b.tableName("Window"))
                .continuousBackupsDescription()
                .pointInTimeRecoveryDescription();
        assertThat(off.pointInTimeRecoveryStatus()).isEqualTo(PointInTimeRecoveryStatus.DISABLED);
        assertThat(off.earliestRestorableDateTime()).isNull();
        Instant before = Instant.now().minusMillis(1);
        ContinuousBackupsDescription on = c.updateContinuousBackups(b -> b.tableName("Window")
                        .pointInTimeRecoverySpecification(
                                p -> p.pointInTimeRecoveryEnabled(true).recoveryPeriodInDays(7)))
                .continuousBackupsDescription();
        assertThat(on.continuousBackupsStatus()).isEqualTo(ContinuousBackupsStatus.ENABLED);
        PointInTimeRecoveryDescription d = on.pointInTimeRecoveryDescription();
        assertThat(d.pointInTimeRecoveryStatus()).isEqualTo(PointInTimeRecoveryStatus.ENABLED);
        assertThat(d.recoveryPeriodInDays()).isEqualTo(7);
        assertThat(d.earliestRestorableDateTime()).isAfterOrEqualTo(before);
        assertThat(d.latestRestorableDateTime()).isAfterOrEqualTo(d.earliestRestorableDateTime());
        assertError(
                () -> c.restoreTableToPointInTime(b -> b.sourceTableName("Window")
                        .targetTableName("Target3")
                        .restoreDateTime(before.minusSeconds(60))),
                "InvalidRestoreTimeException",
                "Only RestoreDateTime between EarliestRestorableDateTime and LatestRestorableDateTime can be specified");
        c.updateContinuousBackups(
                b -> b.tableName("Window").pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(false)));
        assertThat(c.describeContinuousBackups(b -> b.tableName("Window"))
                        .continuousBackupsDescription()
                        .pointInTimeRecoveryDescription()
                        .pointInTimeRecoveryStatus())
                .isEqualTo(PointInTimeRecoveryStatus.DISABLED);
    }

    @Test
    void errors() {
        Fixtures.createTable(c, "NoPitr");
        assertError(
                () -> c.restoreTableToPointInTime(b ->
                        b.sourceTableName("NoPitr").targetTableName("Target2").useLatestRestorableTime(true)),
                "PointInTimeRecoveryUnavailableException",
                "Point in time recovery is not enabled for table 'NoPitr'");
        assertError(
                () -> c.restoreTableToPointInTime(b ->
                        b.sourceTableName("Nope").targetTableName("Target2").useLatestRestorableTime(true)),
                "TableNotFoundException",
                "Table not found: Nope");
        assertError(
                () -> c.describeContinuousBackups(b -> b.tableName("Nope")),
                "TableNotFoundException",
                "Table not found: Nope");
        assertError(
                () -> c.updateContinuousBackups(b -> b.tableName("NoPitr")
                        .pointInTimeRecoverySpecification(
                                p -> p.pointInTimeRecoveryEnabled(true).recoveryPeriodInDays(36))),
                "ValidationException",
                "1 validation error detected: Value '36' at "
                        + "'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: "
                        + "Member must have value less than or equal to 35");
        enable("NoPitr");
        sleep(1_100);
        assertError(
                () -> c.restoreTableToPointInTime(b ->
                        b.sourceTableName("NoPitr").targetTableName("NoPitr").useLatestRestorableTime(true)),
                "TableAlreadyExistsException",
                "Table already exists: NoPitr");
    }
}
