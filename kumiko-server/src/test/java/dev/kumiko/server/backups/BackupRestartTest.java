package dev.kumiko.server.backups;

import static dev.kumiko.server.ErrorAssertions.assertErrorCode;
import static dev.kumiko.server.backups.BackupFixtures.awaitActive;
import static dev.kumiko.server.backups.BackupFixtures.awaitBackup;
import static dev.kumiko.server.backups.BackupFixtures.createIndexedTable;
import static dev.kumiko.server.backups.BackupFixtures.item;
import static dev.kumiko.server.backups.BackupFixtures.put;
import static dev.kumiko.server.backups.BackupFixtures.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BackupSummary;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Backups and jobs across a restart of a RocksDB server: a finished backup is still there and
 * restores; a restore cut off half way is resumed and completes; a backup cut off while copying is
 * FAILED (gone: not found, not listed), never left CREATING. Each batch of a job waits
 * {@link #STEP_PAUSE_MILLIS} first, so the restart reliably lands while a job is running.
 */
@Tag("slow")
class BackupRestartTest {
    private static final long STEP_PAUSE_MILLIS = 1_500;

    @Test
    void backupsSurviveARestartAndInterruptedJobsAreResumedOrFailed() {
        try (TestServer server = TestServer.start(
                TestServer.StoreKind.ROCKSDB,
                EngineSettings.DEFAULTS.withBackupPacing(
                        EngineSettings.PITR_BASE_INTERVAL_MILLIS, STEP_PAUSE_MILLIS))) {
            createIndexedTable(server.client(), "Kept");
            for (int i = 0; i < 25; i++) {
                put(server.client(), "Kept", item("p" + i % 4, "s" + i, i % 3 == 0 ? "red" : "blue", i));
            }
            List<Map<String, AttributeValue>> items = scanAll(server.client(), "Kept", null);
            List<Map<String, AttributeValue>> byColor = scanAll(server.client(), "Kept", "byColor");
            String done = server.client()
                    .createBackup(b -> b.tableName("Kept").backupName("done"))
                    .backupDetails()
                    .backupArn();
            awaitBackup(server.client(), done);

            // Both cut off by the restart: each job waits STEP_PAUSE_MILLIS before its first batch.
            server.client().restoreTableFromBackup(b -> b.backupArn(done).targetTableName("Resumed"));
            String cut = server.client()
                    .createBackup(b -> b.tableName("Kept").backupName("cut"))
                    .backupDetails()
                    .backupArn();
            assertThat(server.client()
                            .describeTable(b -> b.tableName("Resumed"))
                            .table()
                            .tableStatus())
                    .isEqualTo(TableStatus.CREATING);
            server.restart();

            assertThat(server.client()
                            .describeBackup(b -> b.backupArn(done))
                            .backupDescription()
                            .backupDetails()
                            .backupStatus())
                    .isEqualTo(BackupStatus.AVAILABLE);
            assertErrorCode(() -> server.client().describeBackup(b -> b.backupArn(cut)), "BackupNotFoundException");
            assertThat(server.client().listBackups(b -> b.tableName("Kept")).backupSummaries())
                    .extracting(BackupSummary::backupArn)
                    .containsExactly(done);

            awaitActive(server.client(), "Resumed");
            assertThat(scanAll(server.client(), "Resumed", null)).isEqualTo(items);
            assertThat(scanAll(server.client(), "Resumed", "byColor")).isEqualTo(byColor);
            assertThat(server.client()
                            .describeTable(b -> b.tableName("Resumed"))
                            .table()
                            .itemCount())
                    .isEqualTo(25);

            server.client().restoreTableFromBackup(b -> b.backupArn(done).targetTableName("AfterRestart"));
            awaitActive(server.client(), "AfterRestart");
            assertThat(scanAll(server.client(), "AfterRestart", null)).isEqualTo(items);
        }
    }
}
