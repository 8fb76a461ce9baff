package dev.kumiko.server.resourcepolicy;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.StreamsClients;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.json.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * With --auth=sigv4, a table's resource-based policy is evaluated together with the signing key's
 * identity policy, as IAM does within one account: an explicit Deny in either refuses, otherwise an
 * Allow in either grants.
 */
class ResourcePolicyAuthorizationTest {
    private static final String REGION = "ap-northeast-1";
    private static final String ACCOUNT = "123456789012";
    /** The ARN a request's check names: the signing region and the key's account. */
    private static final String SHARED = "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/Shared";
    /** The ARN Kumiko hands out (its fixed account), as PutResourcePolicy's ResourceArn. */
    private static final String SHARED_AS_HANDED_OUT = "arn:aws:dynamodb:" + REGION + ":000000000000:table/Shared";

    private static final String NOTHING = "{\"Version\":\"2012-10-17\",\"Statement\":[]}";
    private static final String EVERYTHING =
            "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\"}}";

    private static TestServer server;
    private static DynamoDbClient dave;

    @BeforeAll
    static void start() {
        Map<String, AccessKey> keys = new HashMap<>();
        keys.put("AKIABOB", key("AKIABOB", "user/bob", NOTHING));
        keys.put("AKIACAROL", key("AKIACAROL", "user/carol", EVERYTHING));
        keys.put("AKIADAVE", key("AKIADAVE", "user/dave", null));
        keys.put("AKIAROOT", key("AKIAROOT", "root", null));
        server = TestServer.start(
                TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, Clock.SYSTEM, TestServer.Security.sigV4(keys));
        dave = as("AKIADAVE");
        dave.createTable(b -> b.tableName("Shared")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("G").attributeType(ScalarAttributeType.S))
                .globalSecondaryIndexes(g -> g.indexName("byG")
                        .keySchema(k -> k.attributeName("G").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
        dave.putItem(b -> b.tableName("Shared").item(Map.of("PK", s("a"), "G", s("g"))));
        dave.putResourcePolicy(b -> b.resourceArn(SHARED_AS_HANDED_OUT)
                .policy("{\"Version\":\"2012-10-17\",\"Statement\":["
                        + "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::" + ACCOUNT + ":user/bob\"},"
                        + "\"Action\":[\"dynamodb:GetItem\",\"dynamodb:Query\"],"
                        + "\"Resource\":[\"" + SHARED + "\",\"" + SHARED + "/index/*\"]},"
                        + "{\"Effect\":\"Deny\",\"Principal\":{\"AWS\":[\"arn:aws:iam::" + ACCOUNT + ":user/carol\"]},"
                        + "\"Action\":\"dynamodb:DeleteItem\",\"Resource\":\"" + SHARED + "\"},"
                        + "{\"Effect\":\"Deny\",\"Principal\":{\"AWS\":\"arn:aws:iam::" + ACCOUNT + ":root\"},"
                        + "\"Action\":[\"dynamodb:Scan\",\"dynamodb:DeleteResourcePolicy\"],\"Resource\":\"" + SHARED
                        + "\"}]}"));
    }

    @AfterAll
    static void stop() {
        dave.close();
        server.close();
    }

    private static AccessKey key(String id, String who, String policyJson) {
        Map<String, Object> policy = null;
        if (policyJson != null) {
            byte[] b = policyJson.getBytes(StandardCharsets.UTF_8);
            policy = JsonTree.parseObject(b, 0, b.length);
        }
        return new AccessKey(
                id, id + "-secret", null, ACCOUNT, "arn:aws:iam::" + ACCOUNT + ":" + who, Map.of(), policy);
    }

    private static DynamoDbClient as(String id) {
        return server.newClient(REGION, AwsBasicCredentials.create(id, id + "-secret"));
    }

    private static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    @Test
    void aResourcePolicyAllowGrantsAKeyWhoseIdentityPolicyAllowsNothing() {
        try (DynamoDbClient bob = as("AKIABOB")) {
            assertThat(bob.getItem(b -> b.tableName("Shared").key(Map.of("PK", s("a"))))
                            .hasItem())
                    .isTrue();
            // The table's policy governs its indexes too.
            assertThat(bob.query(b -> b.tableName("Shared")
                                    .indexName("byG")
                                    .keyConditionExpression("G = :g")
                                    .expressionAttributeValues(Map.of(":g", s("g"))))
                            .count())
                    .isEqualTo(1);
            // What neither policy allows stays implicitly denied.
            assertError(
                    () -> bob.putItem(b -> b.tableName("Shared").item(Map.of("PK", s("b")))),
                    "AccessDeniedException",
                    "User: arn:aws:iam::" + ACCOUNT + ":user/bob is not authorized to perform: dynamodb:PutItem on "
                            + "resource: " + SHARED + " because no identity-based policy allows the dynamodb:PutItem "
                            + "action");
        }
    }

    @Test
    void anExplicitDenyInTheResourcePolicyWinsOverAnIdentityAllow() {
        try (DynamoDbClient carol = as("AKIACAROL")) {
            carol.putItem(b -> b.tableName("Shared").item(Map.of("PK", s("c"))));
            assertError(
                    () -> carol.deleteItem(b -> b.tableName("Shared").key(Map.of("PK", s("c")))),
                    "AccessDeniedException",
                    "User: arn:aws:iam::" + ACCOUNT + ":user/carol is not authorized to perform: dynamodb:DeleteItem "
                            + "on resource: " + SHARED + " with an explicit deny in a resource-based policy");
            assertThat(dave.getItem(b -> b.tableName("Shared").key(Map.of("PK", s("c"))))
                            .hasItem())
                    .isTrue();
        }
    }

    @Test
    void theAccountsRootNamesEveryPrincipalOfTheAccountYetMayAlwaysDeleteThePolicy() {
        assertError(
                () -> dave.scan(b -> b.tableName("Shared")),
                "AccessDeniedException",
                "User: arn:aws:iam::" + ACCOUNT + ":user/dave is not authorized to perform: dynamodb:Scan on "
                        + "resource: " + SHARED + " with an explicit deny in a resource-based policy");
        try (DynamoDbClient root = as("AKIAROOT")) {
            assertError(
                    () -> dave.deleteResourcePolicy(b -> b.resourceArn(SHARED_AS_HANDED_OUT)),
                    "AccessDeniedException",
                    "User: arn:aws:iam::" + ACCOUNT + ":user/dave is not authorized to perform: "
                            + "dynamodb:DeleteResourcePolicy on resource: " + SHARED
                            + " with an explicit deny in a resource-based policy");
            String policy = dave.getResourcePolicy(b -> b.resourceArn(SHARED_AS_HANDED_OUT))
                    .policy();
            root.deleteResourcePolicy(b -> b.resourceArn(SHARED_AS_HANDED_OUT));
            assertThat(dave.scan(b -> b.tableName("Shared")).count()).isPositive();
            dave.putResourcePolicy(b -> b.resourceArn(SHARED_AS_HANDED_OUT).policy(policy));
        }
    }

    @Test
    void aStreamsPolicyGovernsItsStream() {
        String streamArn = dave.createTable(b -> b.tableName("Streamed")
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                        .attributeDefinitions(a -> a.attributeName("PK").attributeType(ScalarAttributeType.S))
                        .streamSpecification(x -> x.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)))
                .tableDescription()
                .latestStreamArn();
        String checked = "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/Streamed/stream/"
                + streamArn.substring(streamArn.indexOf("/stream/") + "/stream/".length());
        dave.putResourcePolicy(b -> b.resourceArn(streamArn)
                .policy("{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
                        + "\"arn:aws:iam::" + ACCOUNT + ":user/bob\"},\"Action\":\"dynamodb:DescribeStream\","
                        + "\"Resource\":\"arn:aws:dynamodb:" + REGION + ":" + ACCOUNT
                        + ":table/Streamed/stream/*\"}}"));
        try (DynamoDbStreamsClient bob =
                StreamsClients.of(server, REGION, AwsBasicCredentials.create("AKIABOB", "AKIABOB-secret"))) {
            assertThat(bob.describeStream(b -> b.streamArn(streamArn))
                            .streamDescription()
                            .streamArn())
                    .isEqualTo(streamArn);
            assertError(
                    () -> bob.getShardIterator(b -> b.streamArn(streamArn)
                            .shardId("shardId-00000000000000000001-00000001")
                            .shardIteratorType(ShardIteratorType.TRIM_HORIZON)),
                    "AccessDeniedException",
                    "User: arn:aws:iam::" + ACCOUNT + ":user/bob is not authorized to perform: "
                            + "dynamodb:GetShardIterator on resource: " + checked
                            + " because no identity-based policy allows the dynamodb:GetShardIterator action");
        }
        // The table's own policy (it has none) is not the stream's: bob may not read the table.
        try (DynamoDbClient bob = as("AKIABOB")) {
            assertError(
                    () -> bob.describeTable(b -> b.tableName("Streamed")),
                    "AccessDeniedException",
                    "User: arn:aws:iam::" + ACCOUNT + ":user/bob is not authorized to perform: dynamodb:DescribeTable "
                            + "on resource: arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/Streamed because no "
                            + "identity-based policy allows the dynamodb:DescribeTable action");
        }
    }

    @Test
    void aPolicyThatLocksItsAuthorOutNeedsConfirmation() {
        dave.createTable(b -> b.tableName("Locked")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("PK").attributeType(ScalarAttributeType.S)));
        String arn = "arn:aws:dynamodb:" + REGION + ":000000000000:table/Locked";
        String lockout = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Deny\",\"Principal\":\"*\","
                + "\"Action\":\"dynamodb:PutResourcePolicy\",\"Resource\":\"*\"}}";
        assertError(
                () -> dave.putResourcePolicy(b -> b.resourceArn(arn).policy(lockout)),
                "ValidationException",
                "One or more parameter values were invalid: Invalid policy document: The policy would remove your "
                        + "permission to change it; set ConfirmRemoveSelfResourceAccess to true to attach it anyway");
        dave.putResourcePolicy(b -> b.resourceArn(arn).policy(lockout).confirmRemoveSelfResourceAccess(true));
        assertError(
                () -> dave.putResourcePolicy(
                        b -> b.resourceArn(arn).policy(lockout).confirmRemoveSelfResourceAccess(true)),
                "AccessDeniedException",
                "User: arn:aws:iam::" + ACCOUNT + ":user/dave is not authorized to perform: "
                        + "dynamodb:PutResourcePolicy on resource: arn:aws:dynamodb:" + REGION + ":" + ACCOUNT
                        + ":table/Locked with an explicit deny in a resource-based policy");
    }
}
