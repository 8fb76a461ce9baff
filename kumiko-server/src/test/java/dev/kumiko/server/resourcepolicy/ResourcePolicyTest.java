package dev.kumiko.server.resourcepolicy;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteResourcePolicyResponse;
import software.amazon.awssdk.services.dynamodb.model.GetResourcePolicyResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy and CreateTable's ResourcePolicy over HTTP. */
class ResourcePolicyTest {
    private static final String ARN_PREFIX = "arn:aws:dynamodb:us-east-1:000000000000:table/";

    private static TestServer server;
    private static DynamoDbClient ddb;

    static String policy(String resource, String... actions) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
                + "\"arn:aws:iam::000000000000:user/john\"},\"Action\":[\"" + String.join("\",\"", actions)
                + "\"],\"Resource\":\"" + resource + "\"}]}";
    }

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.ROCKSDB);
        ddb = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static CreateTableRequest.Builder table(CreateTableRequest.Builder b, String name) {
        return b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S));
    }

    @Test
    void putGetDeleteRoundTripWithRevisionIds() {
        ddb.createTable(b -> table(b, "RoundTrip"));
        String arn = ARN_PREFIX + "RoundTrip";
        String first = policy(arn, "dynamodb:GetItem");
        String revision =
                ddb.putResourcePolicy(b -> b.resourceArn(arn).policy(first)).revisionId();
        assertThat(revision).isNotBlank();

        GetResourcePolicyResponse got = ddb.getResourcePolicy(b -> b.resourceArn(arn));
        assertThat(got.policy()).isEqualTo(first);
        assertThat(got.revisionId()).isEqualTo(revision);

        // The same document again is idempotent: the same revision id.
        assertThat(ddb.putResourcePolicy(b -> b.resourceArn(arn).policy(first)).revisionId())
                .isEqualTo(revision);

        String second = policy(arn, "dynamodb:GetItem", "dynamodb:PutItem");
        String next = ddb.putResourcePolicy(
                        b -> b.resourceArn(arn).policy(second).expectedRevisionId(revision))
                .revisionId();
        assertThat(next).isNotEqualTo(revision);
        assertThat(ddb.getResourcePolicy(b -> b.resourceArn(arn)).policy()).isEqualTo(second);

        DeleteResourcePolicyResponse deleted =
                ddb.deleteResourcePolicy(b -> b.resourceArn(arn).expectedRevisionId(next));
        assertThat(deleted.revisionId()).isEqualTo(next);
        assertError(
                () -> ddb.getResourcePolicy(b -> b.resourceArn(arn)),
                "PolicyNotFoundException",
                "Resource-based policy not found for the provided ResourceArn: " + arn);
        // Deleting nothing is idempotent, and answers no revision id.
        assertThat(ddb.deleteResourcePolicy(b -> b.resourceArn(arn)).revisionId())
                .isNull();
    }

    @Test
    void expectedRevisionIdMustMatchAndNoPolicyMeansNone() {
        ddb.createTable(b -> table(b, "Revisions"));
        String arn = ARN_PREFIX + "Revisions";
        String message = "Resource-based policy not found for the provided ResourceArn: " + arn;
        assertError(
                () -> ddb.putResourcePolicy(b -> b.resourceArn(arn)
                        .policy(policy(arn, "dynamodb:GetItem"))
                        .expectedRevisionId("123")),
                "PolicyNotFoundException",
                message);
        String revision = ddb.putResourcePolicy(b -> b.resourceArn(arn)
                        .policy(policy(arn, "dynamodb:GetItem"))
                        .expectedRevisionId("NO_POLICY"))
                .revisionId();
        assertError(
                () -> ddb.putResourcePolicy(b ->
                        b.resourceArn(arn).policy(policy(arn, "dynamodb:Query")).expectedRevisionId("NO_POLICY")),
                "PolicyNotFoundException",
                message);
        assertError(
                () -> ddb.putResourcePolicy(b ->
                        b.resourceArn(arn).policy(policy(arn, "dynamodb:Query")).expectedRevisionId(revision + "0")),
                "PolicyNotFoundException",
                message);
        assertError(
                () -> ddb.deleteResourcePolicy(b -> b.resourceArn(arn).expectedRevisionId("nope")),
                "PolicyNotFoundException",
                message);
        assertThat(ddb.getResourcePolicy(b -> b.resourceArn(arn)).revisionId()).isEqualTo(revision);
    }

    @Test
    void aPolicyOver20KbIsRefusedAndOneAtTheLimitIsTaken() {
        ddb.createTable(b -> table(b, "Sizes"));
        String arn = ARN_PREFIX + "Sizes";
        String base = policy(arn, "dynamodb:GetItem");
        // Whitespace counts (Developer Guide): pad the document with spaces to exactly the limit and one past.
        String atLimit = base.substring(0, base.length() - 1) + " ".repeat(20 * 1024 - base.length()) + "}";
        assertThat(atLimit).hasSize(20 * 1024);
        ddb.putResourcePolicy(b -> b.resourceArn(arn).policy(atLimit));
        String over = atLimit.substring(0, atLimit.length() - 1) + " }";
        assertError(
                () -> ddb.putResourcePolicy(b -> b.resourceArn(arn).policy(over)),
                "ValidationException",
                "One or more parameter values were invalid: Invalid policy document: The policy document exceeds "
                        + "the maximum size of 20480 bytes");
    }

    @Test
    void aStreamHasAPolicyOfItsOwnWithStreamActionsOnly() {
        String streamArn = ddb.createTable(b -> table(b, "Streamed")
                        .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)))
                .tableDescription()
                .latestStreamArn();
        String tableArn = ARN_PREFIX + "Streamed";
        String streamPolicy = policy(streamArn, "dynamodb:GetRecords", "dynamodb:GetShardIterator");
        ddb.putResourcePolicy(b -> b.resourceArn(streamArn).policy(streamPolicy));
        assertThat(ddb.getResourcePolicy(b -> b.resourceArn(streamArn)).policy())
                .isEqualTo(streamPolicy);
        assertError(
                () -> ddb.getResourcePolicy(b -> b.resourceArn(tableArn)),
                "PolicyNotFoundException",
                "Resource-based policy not found for the provided ResourceArn: " + tableArn);
        // DynamoDB's captured answer for an action a stream's policy cannot have.
        assertError(
                () -> ddb.putResourcePolicy(
                        b -> b.resourceArn(streamArn).policy(policy(streamArn, "dynamodb:ListStreams"))),
                "ValidationException",
                "One or more parameter values were invalid: Invalid policy document: The following action names "
                        + "are invalid: \"dynamodb:ListStreams\"");
        assertError(
                () -> ddb.putResourcePolicy(b -> b.resourceArn(tableArn)
                        .policy(policy(
                                tableArn, "dynamodb:GetItem", "dynamodb:GetRecords", "dynamodb:DescribeStream"))),
                "ValidationException",
                "One or more parameter values were invalid: Invalid policy document: The following action names "
                        + "are invalid: \"dynamodb:GetRecords\", \"dynamodb:DescribeStream\"");
    }

    @Test
    void createTableAttachesItsResourcePolicy() {
        String arn = ARN_PREFIX + "Created";
        String p = policy(arn, "dynamodb:Query");
        ddb.createTable(b -> table(b, "Created").resourcePolicy(p));
        GetResourcePolicyResponse got = ddb.getResourcePolicy(b -> b.resourceArn(arn));
        assertThat(got.policy()).isEqualTo(p);
        assertThat(got.revisionId()).isNotBlank();

        // A bad document creates nothing.
        assertThatThrownBy(() -> ddb.createTable(b -> table(b, "NotCreated").resourcePolicy("{not json")))
                .isInstanceOfSatisfying(
                        AwsServiceException.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));
        assertThat(ddb.listTables().tableNames()).doesNotContain("NotCreated");
    }

    @Test
    void missingTablesIndexesAndMalformedDocumentsAreRefused() {
        String missing = ARN_PREFIX + "Missing";
        assertError(
                () -> ddb.getResourcePolicy(b -> b.resourceArn(missing)),
                "ResourceNotFoundException",
                "Requested resource not found: ResourceArn: " + missing + " not found");
        assertError(
                () -> ddb.deleteResourcePolicy(b -> b.resourceArn(missing)),
                "ResourceNotFoundException",
                "Requested resource not found: ResourceArn: " + missing + " not found");
        ddb.createTable(b -> table(b, "Docs"));
        String arn = ARN_PREFIX + "Docs";
        assertError(
                () -> ddb.putResourcePolicy(
                        b -> b.resourceArn(arn + "/index/byX").policy(policy(arn, "dynamodb:Query"))),
                "ValidationException",
                "Invalid ResourceArn provided as input " + arn + "/index/byX"
                        + ": resource-based policies attach to tables and streams, not to indexes");
        assertError(
                () -> ddb.putResourcePolicy(b -> b.resourceArn(arn).policy("{\"Version\":")),
                "ValidationException",
                "One or more parameter values were invalid: Invalid policy document: The policy is not valid JSON");
        // A statement without a Principal, and a condition operator Kumiko cannot evaluate: refused, not ignored.
        assertThatThrownBy(
                        () -> ddb.putResourcePolicy(
                                b -> b.resourceArn(arn)
                                        .policy(
                                                "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"dynamodb:GetItem\",\"Resource\":\"*\"}}")))
                .hasMessageContaining("Invalid policy document: Statement[0]: a resource-based policy statement "
                        + "needs a Principal");
        assertThatThrownBy(
                        () -> ddb.putResourcePolicy(
                                b -> b.resourceArn(arn)
                                        .policy(
                                                "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"dynamodb:GetItem\","
                                                        + "\"Resource\":\"*\",\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}}}")))
                .hasMessageContaining("condition operator \"IpAddress\" is not supported");
        assertError(
                () -> ddb.putResourcePolicy(b -> b.resourceArn(arn)),
                "ValidationException",
                "1 validation error detected: Value null at 'policy' failed to satisfy constraint: Member must not be null");
    }

    @Test
    void aTableRestoredFromABackupHasNoPolicy() {
        ddb.createTable(b -> table(b, "Backed"));
        String arn = ARN_PREFIX + "Backed";
        ddb.putResourcePolicy(b -> b.resourceArn(arn).policy(policy(arn, "dynamodb:GetItem")));
        String backup = ddb.createBackup(b -> b.tableName("Backed").backupName("before-restore"))
                .backupDetails()
                .backupArn();
        await(
                "backup",
                () -> ddb.describeBackup(b -> b.backupArn(backup))
                                .backupDescription()
                                .backupDetails()
                                .backupStatus()
                        == BackupStatus.AVAILABLE);
        ddb.restoreTableFromBackup(b -> b.backupArn(backup).targetTableName("Restored"));
        await(
                "restore",
                () -> ddb.describeTable(b -> b.tableName("Restored")).table().tableStatus() == TableStatus.ACTIVE);
        String restored = ARN_PREFIX + "Restored";
        assertError(
                () -> ddb.getResourcePolicy(b -> b.resourceArn(restored)),
                "PolicyNotFoundException",
                "Resource-based policy not found for the provided ResourceArn: " + restored);
        assertThat(ddb.getResourcePolicy(b -> b.resourceArn(arn)).policy()).contains("dynamodb:GetItem");
    }

    /** Polls until done, for at most 30 s: backups and restores finish in the background. */
    private static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void aPolicySurvivesARestartAndGoesWithItsTable() {
        ddb.createTable(b -> table(b, "Durable"));
        String arn = ARN_PREFIX + "Durable";
        String p = policy(arn, "dynamodb:GetItem");
        String revision =
                ddb.putResourcePolicy(b -> b.resourceArn(arn).policy(p)).revisionId();
        server.restart();
        ddb = server.client();
        GetResourcePolicyResponse got = ddb.getResourcePolicy(b -> b.resourceArn(arn));
        assertThat(got.policy()).isEqualTo(p);
        assertThat(got.revisionId()).isEqualTo(revision);

        // A table created again under the name does not inherit the old table's policy.
        ddb.deleteTable(b -> b.tableName("Durable"));
        ddb.createTable(b -> table(b, "Durable"));
        assertError(
                () -> ddb.getResourcePolicy(b -> b.resourceArn(arn)),
                "PolicyNotFoundException",
                "Resource-based policy not found for the provided ResourceArn: " + arn);
    }
}
