package dev.kumiko.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Tables and values many end-to-end tests start from. */
public final class Fixtures {
    /** BatchWriteItem's limit of write requests per call. */
    public static final int BATCH_WRITE_ITEMS_MAX = 25;

    private Fixtures() {}

    /** An on-demand table keyed on PK (S) and SK (S), the single-table shape of most tests. */
    public static void createTable(DynamoDbClient c, String name) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(
                        a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("PK").keyType(KeyType.HASH),
                        k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    /**
     * Writes items with BatchWriteItem, 25 a request: a test's setup data in a few calls instead of
     * one PutItem each (the SDK's per-call cost dominates the suite's time). Fails if any is left
     * unprocessed, which an on-demand table of a test server never does.
     */
    public static void putAll(DynamoDbClient c, String table, List<Map<String, AttributeValue>> items) {
        for (int from = 0; from < items.size(); from += BATCH_WRITE_ITEMS_MAX) {
            List<WriteRequest> writes = new ArrayList<>();
            for (Map<String, AttributeValue> item :
                    items.subList(from, Math.min(items.size(), from + BATCH_WRITE_ITEMS_MAX))) {
                writes.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
            }
            BatchWriteItemResponse r = c.batchWriteItem(b -> b.requestItems(Map.of(table, writes)));
            if (!r.unprocessedItems().isEmpty()) {
                throw new IllegalStateException("unprocessed setup items: " + r.unprocessedItems());
            }
        }
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
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
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
        return t.globalSecondaryIndexes().stream()
                .filter(x -> x.indexName().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
