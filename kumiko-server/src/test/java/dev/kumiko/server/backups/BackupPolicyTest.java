package dev.kumiko.server.backups;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.json.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The backup operations' permissions: CreateBackup on the table, DescribeBackup on the backup's
 * ARN, RestoreTableFromBackup on the backup and on the table it would create.
 */
class BackupPolicyTest {
    private static final String REGION = "ap-northeast-1";
    private static final String ACCOUNT = "123456789012";
    private static final String PREFIX = "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":";
    private static final String BACKER = "arn:aws:iam::" + ACCOUNT + ":user/backer";
    /** Backups of Orders and their description; restores only into tables named Copy*. */
    private static final String POLICY = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
            + "\"Action\":[\"dynamodb:CreateBackup\",\"dynamodb:DescribeBackup\",\"dynamodb:RestoreTableFromBackup\"],"
            + "\"Resource\":[\"" + PREFIX + "table/Orders\",\"" + PREFIX + "table/Orders/backup/*\",\"" + PREFIX
            + "table/Copy*\"]}]}";

    private static String implicitDeny(String action, String resource) {
        return "User: " + BACKER + " is not authorized to perform: dynamodb:" + action + " on resource: " + resource
                + " because no identity-based policy allows the dynamodb:" + action + " action";
    }

    @Test
    void backupOperationsAreAuthorizedOnTablesAndBackupArns() {
        Map<String, AccessKey> keys = new HashMap<>();
        keys.put("AKIAADMIN", AccessKey.admin("AKIAADMIN", "admin-secret"));
        byte[] p = POLICY.getBytes(StandardCharsets.UTF_8);
        keys.put(
                "AKIABACKER",
                new AccessKey(
                        "AKIABACKER",
                        "backer-secret",
                        null,
                        ACCOUNT,
                        BACKER,
                        Map.of(),
                        JsonTree.parseObject(p, 0, p.length)));
        try (TestServer server = TestServer.start(
                        TestServer.StoreKind.MEMORY,
                        EngineSettings.DEFAULTS,
                        Clock.SYSTEM,
                        TestServer.Security.sigV4(keys));
                DynamoDbClient admin =
                        server.newClient(REGION, AwsBasicCredentials.create("AKIAADMIN", "admin-secret"));
                DynamoDbClient backer =
                        server.newClient(REGION, AwsBasicCredentials.create("AKIABACKER", "backer-secret"))) {
            Fixtures.createTable(admin, "Orders");
            Fixtures.createTable(admin, "Other");
            String arn = backer.createBackup(b -> b.tableName("Orders").backupName("allowed"))
                    .backupDetails()
                    .backupArn();
            BackupFixtures.awaitBackup(backer, arn);
            assertError(
                    () -> backer.createBackup(b -> b.tableName("Other").backupName("refused")),
                    "AccessDeniedException",
                    implicitDeny("CreateBackup", PREFIX + "table/Other"));
            assertError(
                    () -> backer.restoreTableFromBackup(b -> b.backupArn(arn).targetTableName("Elsewhere")),
                    "AccessDeniedException",
                    implicitDeny("RestoreTableFromBackup", PREFIX + "table/Elsewhere"));
            assertError(
                    () -> backer.listBackups(b -> b.limit(10)),
                    "AccessDeniedException",
                    implicitDeny("ListBackups", "*"));
            assertThat(backer.restoreTableFromBackup(b -> b.backupArn(arn).targetTableName("CopyOfOrders"))
                            .tableDescription()
                            .tableName())
                    .isEqualTo("CopyOfOrders");
            BackupFixtures.awaitActive(admin, "CopyOfOrders");
        }
    }
}
