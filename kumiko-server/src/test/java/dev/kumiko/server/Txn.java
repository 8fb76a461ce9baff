package dev.kumiko.server;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** Builders shared by the transaction tests: a hash-key table "pk" and the four write actions. */
public final class Txn {
    private Txn() {}

    public static void createHashTable(DynamoDbClient c, String name) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    public static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    public static AttributeValue n(long v) {
        return AttributeValue.builder().n(Long.toString(v)).build();
    }

    public static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", s(pk));
    }

    public static TransactWriteItem put(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(p -> p.tableName(table).item(item))
                .build();
    }

    public static TransactWriteItem putIfAbsent(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(p -> p.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)"))
                .build();
    }

    public static TransactWriteItem delete(String table, String pk) {
        return TransactWriteItem.builder()
                .delete(d -> d.tableName(table).key(key(pk)))
                .build();
    }

    public static TransactWriteItem update(
            String table, String pk, String expression, Map<String, AttributeValue> values) {
        return TransactWriteItem.builder()
                .update(u -> u.tableName(table)
                        .key(key(pk))
                        .updateExpression(expression)
                        .expressionAttributeValues(values))
                .build();
    }

    public static TransactWriteItem check(String table, String pk, String condition) {
        return TransactWriteItem.builder()
                .conditionCheck(cc -> cc.tableName(table).key(key(pk)).conditionExpression(condition))
                .build();
    }

    public static TransactGetItem get(String table, String pk) {
        return TransactGetItem.builder()
                .get(g -> g.tableName(table).key(key(pk)))
                .build();
    }
}
