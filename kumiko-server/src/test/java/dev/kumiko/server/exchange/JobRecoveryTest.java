package dev.kumiko.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.exchange.ExchangeJobs;
import dev.kumiko.server.TestServer;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;

/** A job whose server stopped while it ran is marked FAILED at the next start, and an import's table is deleted. */
@Tag("slow")
class JobRecoveryTest {
    @Test
    void jobsLeftInProgressByAStoppedServerAreFailedAndLeaveNothingHalfDone() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.ROCKSDB)) {
            ExportImportTest.ddb = server.client();
            ExportImportTest.createTable("half");
            server.client().putItem(r -> r.tableName("half").item(ExportImportTest.richItem(1)));
            String arn = ExportImportTest.arn("half");
            // What a server that died mid-job leaves in the store: records IN_PROGRESS, a half-filled table.
            JobRecord imported = new JobRecord(new LinkedHashMap<>())
                    .with("ImportArn", arn + "/import/01700000000000-0000abcd")
                    .with("ImportStatus", "IN_PROGRESS")
                    .with("TableArn", arn)
                    .with("StartTime", 1_700_000_000_000L);
            JobRecord exported = new JobRecord(new LinkedHashMap<>())
                    .with("ExportArn", arn + "/export/01700000000000-0000dcba")
                    .with("ExportStatus", "IN_PROGRESS")
                    .with("TableArn", arn)
                    .with("StartTime", 1_700_000_000_000L);
            server.engine().exchange().jobs().put(ExchangeJobs.IMPORT, "01700000000000-0000abcd", imported.encode());
            server.engine().exchange().jobs().put(ExchangeJobs.EXPORT, "01700000000000-0000dcba", exported.encode());

            server.restart();

            ImportTableDescription d = server.client()
                    .describeImport(r -> r.importArn(arn + "/import/01700000000000-0000abcd"))
                    .importTableDescription();
            assertThat(d.importStatus()).isEqualTo(ImportStatus.FAILED);
            assertThat(d.failureMessage()).contains("the server stopped while it ran");
            assertThat(server.client().listTables().tableNames()).doesNotContain("half");
            assertThat(server.client()
                            .describeExport(r -> r.exportArn(arn + "/export/01700000000000-0000dcba"))
                            .exportDescription()
                            .exportStatus())
                    .isEqualTo(ExportStatus.FAILED);
        }
    }
}
