package dev.kumiko.server.backups;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertErrorCode;
import static dev.kumiko.server.backups.BackupFixtures.awaitActive;
import static dev.kumiko.server.backups.BackupFixtures.awaitBackup;
import static dev.kumiko.server.backups.BackupFixtures.createIndexedTable;
import static dev.kumiko.server.backups.BackupFixtures.item;
import static dev.kumiko.server.backups.BackupFixtures.put;
import static dev.kumiko.server.backups.BackupFixtures.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

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
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.BackupDetails;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BackupSummary;
import software.amazon.awssdk.services.dynamodb.model.BackupType;
import software.amazon.awssdk.services.dynamodb.model.BackupTypeFilter;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ListBackupsResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * On-demand backups end to end: a backup is the table as of CreateBackup (later writes are not in
 * it), describes itself as DynamoDB does, lists with filters and pages, restores into a new table
 * whose items and index entries equal the source's at backup time, item for item, and is deleted.
 */
class OnDemandBackupTest {
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aRestoredBackupHoldsTheItemsAndIndexEntriesOfItsTime() {
        createIndexedTable(c, "Orders");
        for (int i = 0; i < 40; i++) {
            put(c, "Orders", item("p" + i % 7, "s" + i, i % 2 == 0 ? "red" : "blue", i));
        }
        List<Map<String, AttributeValue>> items = scanAll(c, "Orders", null);
        List<Map<String, AttributeValue>> byColor = scanAll(c, "Orders", "byColor");
        List<Map<String, AttributeValue>> bySize = scanAll(c, "Orders", "bySize");

        BackupDetails created =
                c.createBackup(b -> b.tableName("Orders").backupName("nightly")).backupDetails();
        assertThat(created.backupArn())
                .matches("arn:aws:dynamodb:us-east-1:000000000000:table/Orders/backup/\\d{14}-[0-9a-f]{8}");
        assertThat(created.backupStatus()).isIn(BackupStatus.CREATING, BackupStatus.AVAILABLE);
        assertThat(created.backupType()).isEqualTo(BackupType.USER);
        assertThat(created.backupName()).isEqualTo("nightly");
        // Writes after CreateBackup are not in the backup.
        put(c, "Orders", item("late", "s", "green", 99));
        c.deleteItem(b -> b.tableName("Orders").key(Fixtures.key("p0", "s0")));
        awaitBackup(c, created.backupArn());

        BackupDescription d =
                c.describeBackup(b -> b.backupArn(created.backupArn())).backupDescription();
        assertThat(d.backupDetails().backupStatus()).isEqualTo(BackupStatus.AVAILABLE);
        assertThat(d.sourceTableDetails().itemCount()).isEqualTo(40);
        assertThat(d.sourceTableDetails().tableSizeBytes()).isPositive();
        assertThat(d.backupDetails().backupSizeBytes())
                .isEqualTo(d.sourceTableDetails().tableSizeBytes());
        assertThat(d.sourceTableDetails().tableArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/Orders");
        assertThat(d.sourceTableDetails().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(d.sourceTableFeatureDetails().globalSecondaryIndexes()).hasSize(1);
        assertThat(d.sourceTableFeatureDetails().localSecondaryIndexes()).hasSize(1);

        TableDescription restoring = c.restoreTableFromBackup(
                        b -> b.backupArn(created.backupArn()).targetTableName("OrdersRestored"))
                .tableDescription();
        assertThat(restoring.tableStatus()).isEqualTo(TableStatus.CREATING);
        assertThat(restoring.restoreSummary().restoreInProgress()).isTrue();
        assertThat(restoring.restoreSummary().sourceBackupArn()).isEqualTo(created.backupArn());
        assertThat(restoring.restoreSummary().sourceTableArn()).endsWith(":table/Orders");
        awaitActive(c, "OrdersRestored");

        TableDescription restored =
                c.describeTable(b -> b.tableName("OrdersRestored")).table();
        assertThat(restored.restoreSummary().restoreInProgress()).isFalse();
        assertThat(restored.itemCount()).isEqualTo(40);
        assertThat(scanAll(c, "OrdersRestored", null)).isEqualTo(items);
        assertThat(scanAll(c, "OrdersRestored", "byColor")).isEqualTo(byColor);
        assertThat(scanAll(c, "OrdersRestored", "bySize")).isEqualTo(bySize);
        assertThat(c.query(b -> b.tableName("OrdersRestored")
                                .indexName("byColor")
                                .keyConditionExpression("color = :c")
                                .expressionAttributeValues(Map.of(":c", Fixtures.s("red"))))
                        .count())
                .isEqualTo(20);
        // The restored table is an ordinary table: writable, and its indexes follow.
        put(c, "OrdersRestored", item("new", "s", "red", 1));
        assertThat(scanAll(c, "OrdersRestored", "byColor")).hasSize(41);
    }

    @Test
    void aRestoreMayOverrideBillingModeAndIndexes() {
        createIndexedTable(c, "Overridden");
        put(c, "Overridden", item("a", "1", "red", 1));
        String arn = c.createBackup(b -> b.tableName("Overridden").backupName("bk-b1"))
                .backupDetails()
                .backupArn();
        awaitBackup(c, arn);
        TableDescription t = c.restoreTableFromBackup(b -> b.backupArn(arn)
                        .targetTableName("OverriddenCopy")
                        .billingModeOverride(BillingMode.PROVISIONED)
                        .provisionedThroughputOverride(
                                p -> p.readCapacityUnits(5L).writeCapacityUnits(6L))
                        .globalSecondaryIndexOverride(List.of()))
                .tableDescription();
        assertThat(t.globalSecondaryIndexes()).isEmpty();
        assertThat(t.provisionedThroughput().writeCapacityUnits()).isEqualTo(6L);
        awaitActive(c, "OverriddenCopy");
        assertThat(scanAll(c, "OverriddenCopy", null)).hasSize(1);
        assertThat(scanAll(c, "OverriddenCopy", "bySize")).hasSize(1);
    }

    @Test
    void listBackupsFiltersAndPages() {
        Fixtures.createTable(c, "ListA");
        Fixtures.createTable(c, "ListB");
        Instant before = Instant.now();
        String a1 = c.createBackup(b -> b.tableName("ListA").backupName("bk-a1"))
                .backupDetails()
                .backupArn();
        String a2 = c.createBackup(b -> b.tableName("ListA").backupName("bk-a2"))
                .backupDetails()
                .backupArn();
        String a3 = c.createBackup(b -> b.tableName("ListA").backupName("bk-a3"))
                .backupDetails()
                .backupArn();
        String b1 = c.createBackup(b -> b.tableName("ListB").backupName("bk-b1"))
                .backupDetails()
                .backupArn();

        ListBackupsResponse page1 = c.listBackups(b -> b.tableName("ListA").limit(2));
        assertThat(page1.backupSummaries()).extracting(BackupSummary::backupArn).containsExactly(a1, a2);
        assertThat(page1.lastEvaluatedBackupArn()).isEqualTo(a2);
        ListBackupsResponse page2 =
                c.listBackups(b -> b.tableName("ListA").limit(2).exclusiveStartBackupArn(a2));
        assertThat(page2.backupSummaries()).extracting(BackupSummary::backupArn).containsExactly(a3);
        assertThat(page2.lastEvaluatedBackupArn()).isNull();
        BackupSummary s = page2.backupSummaries().get(0);
        assertThat(s.tableName()).isEqualTo("ListA");
        assertThat(s.backupName()).isEqualTo("bk-a3");
        assertThat(s.backupType()).isEqualTo(BackupType.USER);

        assertThat(c.listBackups(b -> b.timeRangeLowerBound(before)).backupSummaries())
                .extracting(BackupSummary::backupArn)
                .contains(a1, a2, a3, b1);
        assertThat(c.listBackups(b -> b.timeRangeUpperBound(before)).backupSummaries())
                .extracting(BackupSummary::backupArn)
                .doesNotContain(a1, b1);
        assertThat(c.listBackups(b -> b.backupType(BackupTypeFilter.SYSTEM)).backupSummaries())
                .isEmpty();
        assertThat(c.listBackups(b -> b.tableName("ListB").backupType(BackupTypeFilter.ALL))
                        .backupSummaries())
                .extracting(BackupSummary::backupArn)
                .containsExactly(b1);
        assertError(
                () -> c.listBackups(b -> b.limit(101)),
                "ValidationException",
                "1 validation error detected: "
                        + "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100");
    }

    @Test
    void deleteBackupAndTheErrorsOfMissingThings() {
        Fixtures.createTable(c, "Gone");
        String arn = c.createBackup(b -> b.tableName("Gone").backupName("bk-g1"))
                .backupDetails()
                .backupArn();
        awaitBackup(c, arn);
        assertError(
                () -> c.restoreTableFromBackup(b -> b.backupArn(arn).targetTableName("Gone")),
                "TableAlreadyExistsException",
                "Table already exists: Gone");
        assertErrorCode(
                () -> c.restoreTableFromBackup(b -> b.backupArn(arn)
                        .targetTableName("Bad1")
                        .billingModeOverride(BillingMode.PROVISIONED)
                        .provisionedThroughputOverride(p -> p.readCapacityUnits(1L))),
                "ValidationException");
        BackupDescription deleted = c.deleteBackup(b -> b.backupArn(arn)).backupDescription();
        assertThat(deleted.backupDetails().backupStatus()).isEqualTo(BackupStatus.DELETED);
        assertError(
                () -> c.describeBackup(b -> b.backupArn(arn)),
                "BackupNotFoundException",
                "Backup not found for the given BackupARN: " + arn);
        assertErrorCode(() -> c.deleteBackup(b -> b.backupArn(arn)), "BackupNotFoundException");
        assertErrorCode(
                () -> c.restoreTableFromBackup(b -> b.backupArn(arn).targetTableName("Other1")),
                "BackupNotFoundException");
        assertThat(c.listBackups(b -> b.tableName("Gone")).backupSummaries()).isEmpty();
        assertError(
                () -> c.createBackup(b -> b.tableName("Missing").backupName("bk-m")),
                "TableNotFoundException",
                "Table not found: Missing");
        assertError(
                () -> c.createBackup(b -> b.backupName("nameless")),
                "ValidationException",
                "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: "
                        + "Member must not be null");
        assertError(
                () -> c.createBackup(b -> b.tableName("Gone").backupName("no spaces")),
                "ValidationException",
                "1 validation error detected: Value 'no spaces' at 'backupName' failed to satisfy constraint: "
                        + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
    }
}
