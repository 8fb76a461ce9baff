package dev.kumiko.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** Tables and values many end-to-end tests start from. */
public final class Fixtures {
    private Fixtures() {}

    /** An on-demand table keyed on PK (S) and SK (S), the single-table shape of most tests. */
    public static void createTable(DynamoDbClient c, String name) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    public static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    public static AttributeValue n(String v) {
        return AttributeValue.builder().n(v).build();
    }

    public static AttributeValue n(long v) {
        return AttributeValue.builder().n(Long.toString(v)).build();
    }

    public static AttributeDefinition def(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    public static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    public static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("PK", s(pk), "SK", s(sk));
    }

    /** An item from name/value pairs (Map.of stops at ten). */
    public static Map<String, AttributeValue> item(Object... nameValuePairs) {
        Map<String, AttributeValue> out = new HashMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            out.put((String) nameValuePairs[i], (AttributeValue) nameValuePairs[i + 1]);
        }
        return out;
    }

    public static List<String> sortKeys(List<Map<String, AttributeValue>> items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.get("SK").s()));
        return out;
    }

    public static GlobalSecondaryIndexDescription index(TableDescription t, String name) {
        return t.globalSecondaryIndexes().stream().filter(x -> x.indexName().equals(name)).findFirst().orElseThrow();
    }
}
