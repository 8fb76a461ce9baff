package dev.kumiko.server;

import static dev.kumiko.server.ErrorAssertions.assertValidation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Which of two problems in one request DynamoDB reports: CreateTable's keys before its throughput. */
class ValidationOrderMoreTest {
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
    void createTableJudgesIndexKeysBeforeThroughput() {
        // Provisioned without any throughput, and an LSI on another hash key: the key wins.
        assertValidation(() -> c.createTable(b -> b.tableName("order-lsi").billingMode(BillingMode.PROVISIONED)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("other").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .localSecondaryIndexes(x -> x.indexName("lsi")
                        .keySchema(k -> k.attributeName("other").keyType(KeyType.HASH),
                                k -> k.attributeName("sk").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))),
                "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key "
                        + "as table KeySchema for index: lsi. index hash key: other, table hash key: pk");
        // Throughput over the account limit, and a GSI whose first key element is a RANGE key.
        assertValidation(() -> c.createTable(b -> b.tableName("order-gsi").billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(1_000_000L).writeCapacityUnits(1L))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .globalSecondaryIndexes(x -> x.indexName("gsi")
                        .keySchema(k -> k.attributeName("g").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L)))),
                "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
}
