package dev.kumiko.server.partiql;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.json.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * PartiQL under --auth=sigv4: each statement needs its PartiQL action on its table, and a policy
 * can deny the SELECTs that would scan the whole table (dynamodb:FullTableScan), as the AWS guide's
 * example does.
 */
class PartiqlAuthorizationTest {
    private static final String REGION = "ap-northeast-1";
    private static final String ACCOUNT = "123456789012";
    private static final String TABLE_ARN = "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/Notes";
    private static final String READER = "arn:aws:iam::" + ACCOUNT + ":user/reader";
    /** Select and insert on Notes, but never a full table scan. */
    private static final String POLICY = "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":[\"dynamodb:PartiQLSelect\",\"dynamodb:PartiQLInsert\"],"
            + "\"Resource\":\"" + TABLE_ARN + "\"},"
            + "{\"Effect\":\"Deny\",\"Action\":\"dynamodb:PartiQLSelect\",\"Resource\":\"" + TABLE_ARN + "\","
            + "\"Condition\":{\"StringEquals\":{\"dynamodb:FullTableScan\":[\"true\"]}}}]}";

    private static TestServer server;

    @BeforeAll
    static void start() {
        byte[] policy = POLICY.getBytes(StandardCharsets.UTF_8);
        Map<String, AccessKey> keys = Map.of(
                "AKIAADMIN",
                AccessKey.admin("AKIAADMIN", "admin-secret"),
                "AKIAREADER",
                new AccessKey(
                        "AKIAREADER",
                        "reader-secret",
                        null,
                        ACCOUNT,
                        READER,
                        Map.of(),
                        JsonTree.parseObject(policy, 0, policy.length)));
        server = TestServer.start(
                TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, Clock.SYSTEM, TestServer.Security.sigV4(keys));
        try (DynamoDbClient admin = server.newClient(REGION, AwsBasicCredentials.create("AKIAADMIN", "admin-secret"))) {
            admin.createTable(b -> b.tableName("Notes")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void eachStatementNeedsItsPartiqlAction() {
        try (DynamoDbClient c = server.newClient(REGION, AwsBasicCredentials.create("AKIAREADER", "reader-secret"))) {
            c.executeStatement(b -> b.statement("INSERT INTO Notes VALUE {'id': 'n1', 'text': 'hi'}"));
            assertThat(c.executeStatement(b -> b.statement("SELECT * FROM Notes WHERE id = 'n1'"))
                            .items())
                    .hasSize(1);
            assertError(
                    () -> c.executeStatement(b -> b.statement("SELECT * FROM Notes WHERE text = 'hi'")),
                    "AccessDeniedException",
                    "User: " + READER + " is not authorized to perform: dynamodb:PartiQLSelect" + " on resource: "
                            + TABLE_ARN + " with an explicit deny in an identity-based policy");
            assertError(
                    () -> c.executeStatement(b -> b.statement("DELETE FROM Notes WHERE id = 'n1'")),
                    "AccessDeniedException",
                    "User: " + READER + " is not authorized to perform: dynamodb:PartiQLDelete"
                            + " on resource: " + TABLE_ARN + " because no identity-based policy allows the "
                            + "dynamodb:PartiQLDelete action");
            assertThat(c.executeStatement(b -> b.statement("SELECT * FROM Notes WHERE id = 'n1'"))
                            .items())
                    .hasSize(1);
        }
    }
}
