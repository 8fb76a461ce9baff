package dev.kumiko.server.auth;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import dev.kumiko.server.json.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
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
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * IAM-style policies end to end: SDK v2 clients sign with keys of the credentials file, and each
 * key's policy decides what it may do, answered with DynamoDB's AccessDeniedException.
 */
class PolicyAuthorizationTest {
    private static final String REGION = "ap-northeast-1";
    private static final String ACCOUNT = "123456789012";
    private static final String MY_APP = "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/MyApp";
    private static final String ALICE = "arn:aws:iam::" + ACCOUNT + ":user/alice";
    /** Seed 004's policy, exactly as the seed writes it. */
    private static final String SEED_004 = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":"
            + "\"AllowAccessToOwnItems\",\"Effect\":\"Allow\",\"Action\":[\"dynamodb:GetItem\",\"dynamodb:PutItem\","
            + "\"dynamodb:UpdateItem\",\"dynamodb:DeleteItem\",\"dynamodb:Query\"],\"Resource\":\"arn:aws:dynamodb:"
            + "ap-northeast-1:123456789012:table/MyApp\",\"Condition\":{\"ForAllValues:StringEquals\":"
            + "{\"dynamodb:LeadingKeys\":[\"USER#${aws:PrincipalTag/userId}\"]}}}]}";

    private static final String DENY_DELETE = "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\"},"
            + "{\"Effect\":\"Deny\",\"Action\":\"dynamodb:DeleteItem\",\"Resource\":\"arn:aws:dynamodb:*:*:table/MyApp\"}]}";
    private static final String INDEX_ONLY = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\","
            + "\"Action\":\"dynamodb:Query\",\"Resource\":\"arn:aws:dynamodb:*:*:table/MyApp/index/*\"}}";
    private static final String ATTRIBUTES = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\","
            + "\"Action\":[\"dynamodb:GetItem\",\"dynamodb:UpdateItem\"],\"Resource\":\"arn:aws:dynamodb:*:*:table/MyApp\","
            + "\"Condition\":{\"ForAllValues:StringEquals\":{\"dynamodb:Attributes\":[\"PK\",\"SK\",\"name\"]},"
            + "\"StringEqualsIfExists\":{\"dynamodb:ReturnValues\":[\"NONE\",\"UPDATED_NEW\"]}}}}";
    /** Own-partition writes through batches and transactions, on MyApp only. */
    private static final String OWN_WRITES = "{\"Version\":\"2012-10-17\",\"Statement\":{\"Effect\":\"Allow\","
            + "\"Action\":[\"dynamodb:BatchWriteItem\",\"dynamodb:PutItem\"],\"Resource\":\"" + MY_APP + "\","
            + "\"Condition\":{\"ForAllValues:StringEquals\":{\"dynamodb:LeadingKeys\":[\"USER#${aws:username}\"]}}}}";

    private static TestServer server;
    private static DynamoDbClient admin;

    @BeforeAll
    static void start() {
        Map<String, AccessKey> keys = new HashMap<>();
        keys.put("AKIAADMIN", AccessKey.admin("AKIAADMIN", "admin-secret"));
        keys.put("AKIAALICE", key("AKIAALICE", "alice", SEED_004));
        keys.put("AKIADENY", key("AKIADENY", "denied", DENY_DELETE));
        keys.put("AKIAINDEX", key("AKIAINDEX", "indexer", INDEX_ONLY));
        keys.put("AKIAATTRS", key("AKIAATTRS", "attrs", ATTRIBUTES));
        keys.put("AKIACAROL", key("AKIACAROL", "carol", OWN_WRITES));
        server = TestServer.start(
                TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, Clock.SYSTEM, TestServer.Security.sigV4(keys));
        admin = client("AKIAADMIN", "admin-secret");
        createTable("MyApp", true);
        createTable("Other", false);
    }

    @AfterAll
    static void stop() {
        admin.close();
        server.close();
    }

    private static AccessKey key(String id, String user, String policyJson) {
        byte[] b = policyJson.getBytes(StandardCharsets.UTF_8);
        return new AccessKey(
                id,
                user + "-secret",
                null,
                ACCOUNT,
                "arn:aws:iam::" + ACCOUNT + ":user/" + user,
                Map.of("userId", user),
                JsonTree.parseObject(b, 0, b.length));
    }

    private static DynamoDbClient client(String id, String secret) {
        return server.newClient(REGION, AwsBasicCredentials.create(id, secret));
    }

    private static DynamoDbClient as(String id, String user) {
        return client(id, user + "-secret");
    }

    /** The seed's create-table: PK/SK strings; MyApp also has GSI1 on GSI1PK/GSI1SK. */
    private static void createTable(String name, boolean withIndex) {
        admin.createTable(b -> {
            b.tableName(name)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .keySchema(
                            k -> k.attributeName("PK").keyType(KeyType.HASH),
                            k -> k.attributeName("SK").keyType(KeyType.RANGE));
            if (withIndex) {
                b.attributeDefinitions(
                                a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("SK").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("GSI1PK").attributeType(ScalarAttributeType.S),
                                a -> a.attributeName("GSI1SK").attributeType(ScalarAttributeType.S))
                        .globalSecondaryIndexes(g -> g.indexName("GSI1")
                                .keySchema(
                                        k -> k.attributeName("GSI1PK").keyType(KeyType.HASH),
                                        k -> k.attributeName("GSI1SK").keyType(KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.ALL)));
            } else {
                b.attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S));
            }
        });
    }

    private static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("PK", s(pk), "SK", s(sk));
    }

    private static String implicitDeny(String principal, String action, String resource) {
        return "User: " + principal + " is not authorized to perform: dynamodb:" + action + " on resource: " + resource
                + " because no identity-based policy allows the dynamodb:" + action + " action";
    }

    private static boolean exists(String table, Map<String, AttributeValue> key) {
        return admin.getItem(b -> b.tableName(table).key(key).consistentRead(true))
                .hasItem();
    }

    @Test
    void seedPolicyLetsAliceUseHerOwnPartitionOnly() {
        try (DynamoDbClient alice = as("AKIAALICE", "alice")) {
            Map<String, AttributeValue> mine = key("USER#alice", "PROFILE");
            alice.putItem(b ->
                    b.tableName("MyApp").item(Map.of("PK", s("USER#alice"), "SK", s("PROFILE"), "name", s("Alice"))));
            assertThat(alice.getItem(b -> b.tableName("MyApp").key(mine))
                            .item()
                            .get("name")
                            .s())
                    .isEqualTo("Alice");
            alice.updateItem(b -> b.tableName("MyApp")
                    .key(mine)
                    .updateExpression("SET age = :a")
                    .expressionAttributeValues(
                            Map.of(":a", AttributeValue.builder().n("30").build())));
            assertThat(alice.query(b -> b.tableName("MyApp")
                                    .keyConditionExpression("PK = :pk")
                                    .expressionAttributeValues(Map.of(":pk", s("USER#alice"))))
                            .count())
                    .isEqualTo(1);
            alice.deleteItem(b -> b.tableName("MyApp").key(mine));
            assertThat(exists("MyApp", mine)).isFalse();
        }
    }

    @Test
    void seedPolicyRefusesBobsPartitionScanAndOtherTables() {
        Map<String, AttributeValue> bobs = key("USER#bob", "PROFILE");
        admin.putItem(b -> b.tableName("MyApp").item(Map.of("PK", s("USER#bob"), "SK", s("PROFILE"))));
        try (DynamoDbClient alice = as("AKIAALICE", "alice")) {
            assertError(
                    () -> alice.getItem(b -> b.tableName("MyApp").key(bobs)),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "GetItem", MY_APP));
            assertError(
                    () -> alice.putItem(b -> b.tableName("MyApp").item(Map.of("PK", s("USER#bob"), "SK", s("X")))),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "PutItem", MY_APP));
            assertError(
                    () -> alice.updateItem(b -> b.tableName("MyApp")
                            .key(bobs)
                            .updateExpression("SET x = :x")
                            .expressionAttributeValues(Map.of(":x", s("1")))),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "UpdateItem", MY_APP));
            assertError(
                    () -> alice.deleteItem(b -> b.tableName("MyApp").key(bobs)),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "DeleteItem", MY_APP));
            assertError(
                    () -> alice.query(b -> b.tableName("MyApp")
                            .keyConditionExpression("PK = :pk")
                            .expressionAttributeValues(Map.of(":pk", s("USER#bob")))),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "Query", MY_APP));
            assertError(
                    () -> alice.scan(b -> b.tableName("MyApp")),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "Scan", MY_APP));
            assertError(
                    () -> alice.getItem(b -> b.tableName("Other").key(key("USER#alice", "P"))),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "GetItem", MY_APP.replace("MyApp", "Other")));
            assertError(alice::listTables, "AccessDeniedException", implicitDeny(ALICE, "ListTables", "*"));
        }
        assertThat(exists("MyApp", bobs)).as("Bob's item is untouched").isTrue();
        assertThat(exists("MyApp", key("USER#bob", "X"))).isFalse();
    }

    @Test
    void theResourceIsSignedForTheClientsRegion() {
        try (DynamoDbClient elsewhere =
                server.newClient("us-west-2", AwsBasicCredentials.create("AKIAALICE", "alice-secret"))) {
            assertError(
                    () -> elsewhere.getItem(b -> b.tableName("MyApp").key(key("USER#alice", "P"))),
                    "AccessDeniedException",
                    implicitDeny(ALICE, "GetItem", MY_APP.replace(REGION, "us-west-2")));
        }
    }

    @Test
    void anExplicitDenyWinsOverAnAllow() {
        String denied = "arn:aws:iam::" + ACCOUNT + ":user/denied";
        try (DynamoDbClient c = as("AKIADENY", "denied")) {
            c.putItem(b -> b.tableName("MyApp").item(key("USER#d", "1")));
            assertError(
                    () -> c.deleteItem(b -> b.tableName("MyApp").key(key("USER#d", "1"))),
                    "AccessDeniedException",
                    "User: " + denied + " is not authorized to perform: dynamodb:DeleteItem on resource: " + MY_APP
                            + " with an explicit deny in an identity-based policy");
            c.deleteItem(b -> b.tableName("Other").key(key("USER#d", "1")));
        }
        assertThat(exists("MyApp", key("USER#d", "1"))).isTrue();
    }

    @Test
    void anIndexArnWildcardGrantsIndexQueriesOnly() {
        admin.putItem(b -> b.tableName("MyApp")
                .item(Map.of("PK", s("USER#i"), "SK", s("1"), "GSI1PK", s("ORG#1"), "GSI1SK", s("a"))));
        try (DynamoDbClient c = as("AKIAINDEX", "indexer")) {
            assertThat(c.query(b -> b.tableName("MyApp")
                                    .indexName("GSI1")
                                    .keyConditionExpression("GSI1PK = :o")
                                    .expressionAttributeValues(Map.of(":o", s("ORG#1"))))
                            .count())
                    .isEqualTo(1);
            assertError(
                    () -> c.query(b -> b.tableName("MyApp")
                            .keyConditionExpression("PK = :p")
                            .expressionAttributeValues(Map.of(":p", s("USER#i")))),
                    "AccessDeniedException",
                    implicitDeny("arn:aws:iam::" + ACCOUNT + ":user/indexer", "Query", MY_APP));
        }
    }

    @Test
    void theAttributesConditionLimitsWhatIsReadAndWritten() {
        String attrs = "arn:aws:iam::" + ACCOUNT + ":user/attrs";
        admin.putItem(b ->
                b.tableName("MyApp").item(Map.of("PK", s("USER#a"), "SK", s("1"), "name", s("n"), "secret", s("s"))));
        Map<String, AttributeValue> k = key("USER#a", "1");
        try (DynamoDbClient c = as("AKIAATTRS", "attrs")) {
            assertThat(c.getItem(b -> b.tableName("MyApp")
                                    .key(k)
                                    .projectionExpression("#n")
                                    .expressionAttributeNames(Map.of("#n", "name")))
                            .item())
                    .containsOnlyKeys("name");
            c.updateItem(b -> b.tableName("MyApp")
                    .key(k)
                    .updateExpression("SET #n = :v")
                    .expressionAttributeNames(Map.of("#n", "name"))
                    .expressionAttributeValues(Map.of(":v", s("m"))));
            assertError(
                    () -> c.getItem(b -> b.tableName("MyApp").key(k).projectionExpression("secret")),
                    "AccessDeniedException",
                    implicitDeny(attrs, "GetItem", MY_APP));
            assertError(
                    () -> c.updateItem(b -> b.tableName("MyApp")
                            .key(k)
                            .updateExpression("SET secret = :v")
                            .expressionAttributeValues(Map.of(":v", s("x")))),
                    "AccessDeniedException",
                    implicitDeny(attrs, "UpdateItem", MY_APP));
            assertError(
                    () -> c.updateItem(b -> b.tableName("MyApp")
                            .key(k)
                            .updateExpression("SET #n = :v")
                            .expressionAttributeNames(Map.of("#n", "name"))
                            .expressionAttributeValues(Map.of(":v", s("z")))
                            .returnValues("ALL_OLD")),
                    "AccessDeniedException",
                    implicitDeny(attrs, "UpdateItem", MY_APP));
        }
        Map<String, AttributeValue> now =
                admin.getItem(b -> b.tableName("MyApp").key(k)).item();
        assertThat(now.get("name").s()).isEqualTo("m");
        assertThat(now.get("secret").s()).isEqualTo("s");
    }

    @Test
    void aBatchWithOneRefusedPartOrTableWritesNothing() {
        String carol = "arn:aws:iam::" + ACCOUNT + ":user/carol";
        try (DynamoDbClient c = as("AKIACAROL", "carol")) {
            c.batchWriteItem(b -> b.requestItems(Map.of("MyApp", List.of(put(key("USER#carol", "1"))))));
            assertError(
                    () -> c.batchWriteItem(b -> b.requestItems(
                            Map.of("MyApp", List.of(put(key("USER#carol", "2")), put(key("USER#bob", "2")))))),
                    "AccessDeniedException",
                    implicitDeny(carol, "BatchWriteItem", MY_APP));
            assertError(
                    () -> c.batchWriteItem(b -> b.requestItems(Map.of(
                            "MyApp", List.of(put(key("USER#carol", "3"))),
                            "Other", List.of(put(key("USER#carol", "3")))))),
                    "AccessDeniedException",
                    implicitDeny(carol, "BatchWriteItem", MY_APP.replace("MyApp", "Other")));
        }
        assertThat(exists("MyApp", key("USER#carol", "1"))).isTrue();
        assertThat(exists("MyApp", key("USER#carol", "2"))).isFalse();
        assertThat(exists("MyApp", key("USER#bob", "2"))).isFalse();
        assertThat(exists("MyApp", key("USER#carol", "3"))).isFalse();
    }

    @Test
    void aTransactionNeedsEveryActionsPermission() {
        String carol = "arn:aws:iam::" + ACCOUNT + ":user/carol";
        try (DynamoDbClient c = as("AKIACAROL", "carol")) {
            c.transactWriteItems(b -> b.transactItems(Txn.put("MyApp", key("USER#carol", "t1"))));
            assertError(
                    () -> c.transactWriteItems(b -> b.transactItems(
                            Txn.put("MyApp", key("USER#carol", "t2")), Txn.put("MyApp", key("USER#bob", "t2")))),
                    "AccessDeniedException",
                    implicitDeny(carol, "PutItem", MY_APP));
            assertError(
                    () -> c.transactWriteItems(b -> b.transactItems(
                            Txn.put("MyApp", key("USER#carol", "t3")),
                            TransactWriteItem.builder()
                                    .delete(d -> d.tableName("MyApp").key(key("USER#carol", "t1")))
                                    .build())),
                    "AccessDeniedException",
                    implicitDeny(carol, "DeleteItem", MY_APP));
        }
        assertThat(exists("MyApp", key("USER#carol", "t1"))).isTrue();
        assertThat(exists("MyApp", key("USER#carol", "t2"))).isFalse();
        assertThat(exists("MyApp", key("USER#bob", "t2"))).isFalse();
        assertThat(exists("MyApp", key("USER#carol", "t3"))).isFalse();
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(p -> p.item(item)).build();
    }
}
