package dev.kumiko.server.auth;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** {@code --auth=sigv4}: requests signed by the AWS SDK v2 are verified against the credentials file. */
class SigV4AuthTest {
    private static final String INVALID_SIGNATURE = "The request signature we calculated does not match the "
            + "signature you provided. Check your AWS Secret Access Key and signing method. Consult the service "
            + "documentation for details.";
    private static final String INVALID_TOKEN = "The security token included in the request is invalid.";
    static final Map<String, AccessKey> KEYS = Map.of(
            "AKIAALICE", AccessKey.admin("AKIAALICE", "alice-secret"),
            "ASIATEMP",
                    new AccessKey(
                            "ASIATEMP",
                            "temp-secret",
                            "the-session-token",
                            "000000000000",
                            "arn:aws:iam::000000000000:user/temp",
                            Map.of(),
                            null),
            "AKIAPOLICY",
                    new AccessKey(
                            "AKIAPOLICY",
                            "policy-secret",
                            null,
                            "123456789012",
                            "arn:aws:iam::123456789012:user/bob",
                            Map.of(),
                            Map.of(
                                    "Version",
                                    "2012-10-17",
                                    "Statement",
                                    Map.of("Effect", "Allow", "Action", "dynamodb:GetItem", "Resource", "*"))));

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(
                TestServer.StoreKind.MEMORY,
                EngineSettings.DEFAULTS,
                dev.kumiko.engine.base.Clock.SYSTEM,
                TestServer.Security.sigV4(KEYS));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static DynamoDbClient client(String id, String secret) {
        return server.newClient("eu-west-1", AwsBasicCredentials.create(id, secret));
    }

    @Test
    void aKnownKeySignsEveryKindOfRequest() {
        try (DynamoDbClient c = client("AKIAALICE", "alice-secret")) {
            String table = "signed";
            Txn.createHashTable(c, table);
            c.putItem(b -> b.tableName(table).item(Map.of("pk", Txn.s("a"), "v", Txn.s("x y  z"))));
            assertThat(c.getItem(b -> b.tableName(table).key(Map.of("pk", Txn.s("a"))))
                            .item()
                            .get("v")
                            .s())
                    .isEqualTo("x y  z");
            // About 800 KB in one signed request: the payload hash covers every byte.
            List<WriteRequest> puts = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                puts.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(Map.of(
                                        "pk",
                                        Txn.s("big" + i),
                                        "blob",
                                        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[32 * 1024]))))
                                .build())
                        .build());
            }
            assertThat(c.batchWriteItem(b -> b.requestItems(Map.of(table, puts)))
                            .unprocessedItems())
                    .isEmpty();
            assertThat(c.scan(b -> b.tableName(table)).count()).isEqualTo(26);
            assertThat(c.describeTable(b -> b.tableName(table)).table().tableArn())
                    .as("the signed region names the ARN")
                    .startsWith("arn:aws:dynamodb:eu-west-1:");
        }
    }

    @Test
    void aWrongSecretIsAnInvalidSignature() {
        try (DynamoDbClient c = client("AKIAALICE", "not-alice-secret")) {
            assertError(c::listTables, "InvalidSignatureException", INVALID_SIGNATURE);
        }
    }

    @Test
    void anUnknownKeyIsAnUnrecognizedClient() {
        try (DynamoDbClient c = client("AKIAMALLORY", "alice-secret")) {
            assertError(c::listTables, "UnrecognizedClientException", INVALID_TOKEN);
        }
    }

    @Test
    void aSessionKeyNeedsItsExactToken() {
        try (DynamoDbClient right = server.newClient(
                        "us-east-1", AwsSessionCredentials.create("ASIATEMP", "temp-secret", "the-session-token"));
                DynamoDbClient wrong = server.newClient(
                        "us-east-1", AwsSessionCredentials.create("ASIATEMP", "temp-secret", "the-session-tokeN"));
                DynamoDbClient missing = client("ASIATEMP", "temp-secret");
                DynamoDbClient extra = server.newClient(
                        "us-east-1", AwsSessionCredentials.create("AKIAALICE", "alice-secret", "the-session-token"))) {
            assertThat(right.listTables().tableNames()).isNotNull();
            assertError(wrong::listTables, "UnrecognizedClientException", INVALID_TOKEN);
            assertError(missing::listTables, "UnrecognizedClientException", INVALID_TOKEN);
            assertError(extra::listTables, "UnrecognizedClientException", INVALID_TOKEN);
        }
    }

    @Test
    void streamsRequestsAreVerifiedToo() {
        try (var good = StreamsClients.of(server, AwsBasicCredentials.create("AKIAALICE", "alice-secret"));
                var bad = StreamsClients.of(server, AwsBasicCredentials.create("AKIAALICE", "wrong"))) {
            assertThat(good.listStreams().streams()).isNotNull();
            assertError(bad::listStreams, "InvalidSignatureException", INVALID_SIGNATURE);
        }
    }

    @Test
    void aKeyWithAPolicyIsRefusedWhatItDoesNotAllow() {
        try (DynamoDbClient c = client("AKIAPOLICY", "policy-secret")) {
            assertError(
                    c::listTables,
                    "AccessDeniedException",
                    "User: arn:aws:iam::123456789012:user/bob is not "
                            + "authorized to perform: dynamodb:ListTables on resource: * because no identity-based policy "
                            + "allows the dynamodb:ListTables action");
        }
    }

    @Test
    void theSignatureIsCheckedBeforeTheOperation() {
        try (DynamoDbClient c = client("AKIAALICE", "wrong")) {
            assertError(
                    () -> c.describeTable(b -> b.tableName("no-such-table")),
                    "InvalidSignatureException",
                    INVALID_SIGNATURE);
        }
        try (DynamoDbClient c = client("AKIAALICE", "alice-secret")) {
            assertError(
                    () -> c.describeTable(b -> b.tableName("no-such-table")),
                    "ResourceNotFoundException",
                    "Requested resource not found: Table: no-such-table not found");
        }
    }

    @Test
    void sdkRequestsFromAClockTooFarOffAreExpired() {
        // The server's clock runs 20 minutes ahead of the SDK's, which signs with the real time.
        ManualClock clock = new ManualClock(System.currentTimeMillis() + 20 * 60 * 1000);
        try (TestServer ahead = TestServer.start(
                        TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, clock, TestServer.Security.sigV4(KEYS));
                DynamoDbClient c =
                        ahead.newClient("us-east-1", AwsBasicCredentials.create("AKIAALICE", "alice-secret"))) {
            assertThatThrownBy(c::listTables).isInstanceOfSatisfying(AwsServiceException.class, e -> {
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidSignatureException");
                assertThat(e.awsErrorDetails().errorMessage())
                        .startsWith("Signature expired: ")
                        .endsWith(" - 15 min.)");
            });
        }
    }
}
