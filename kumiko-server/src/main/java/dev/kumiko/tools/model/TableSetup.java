package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.Index;
import dev.kumiko.tools.model.Model.KeyAttribute;
import dev.kumiko.tools.model.Model.TableSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Creates a design's table (on-demand), waits until it and its indexes are ACTIVE, loads the sample items. */
final class TableSetup {
    private static final int BATCH_WRITE_ITEMS_MAX = 25;
    private static final long ACTIVE_WAIT_MILLIS_MAX = 10 * 60 * 1000;
    private static final long POLL_MILLIS = 200;
    /** Unprocessed items are resent; a server that never takes them fails the check instead of looping. */
    private static final int UNPROCESSED_RETRIES_MAX = 50;

    private TableSetup() {}

    static void create(DynamoClient client, TableSpec t, String tableName) {
        Map<String, Object> req = new LinkedHashMap<>();
        req.put("TableName", tableName);
        req.put("BillingMode", "PAY_PER_REQUEST");
        Map<String, String> definitions = new LinkedHashMap<>();
        req.put("KeySchema", keySchema(t.partitionKey(), t.sortKey(), definitions));
        if (!t.globalSecondaryIndexes().isEmpty()) {
            req.put("GlobalSecondaryIndexes", indexes(t.globalSecondaryIndexes(), t.partitionKey(), definitions));
        }
        if (!t.localSecondaryIndexes().isEmpty()) {
            req.put("LocalSecondaryIndexes", indexes(t.localSecondaryIndexes(), t.partitionKey(), definitions));
        }
        List<Object> attributeDefinitions = new ArrayList<>();
        definitions.forEach(
                (name, type) -> attributeDefinitions.add(Map.of("AttributeName", name, "AttributeType", type)));
        req.put("AttributeDefinitions", attributeDefinitions);
        client.call("CreateTable", req);
        waitActive(client, tableName);
        if (t.ttlAttribute() != null) {
            client.call(
                    "UpdateTimeToLive",
                    Map.of(
                            "TableName",
                            tableName,
                            "TimeToLiveSpecification",
                            Map.of("Enabled", true, "AttributeName", t.ttlAttribute())));
        }
    }

    static void deleteIfExists(DynamoClient client, String tableName) {
        try {
            client.call("DeleteTable", Map.of("TableName", tableName));
        } catch (DynamoClient.CallFailed e) {
            if (!"ResourceNotFoundException".equals(e.type)) {
                throw e;
            }
        }
    }

    static void load(DynamoClient client, String tableName, List<SampleData.SampleItem> items) {
        for (int from = 0; from < items.size(); from += BATCH_WRITE_ITEMS_MAX) {
            List<Object> writes = new ArrayList<>();
            for (SampleData.SampleItem s : items.subList(from, Math.min(items.size(), from + BATCH_WRITE_ITEMS_MAX))) {
                writes.add(Map.of("PutRequest", Map.of("Item", s.item())));
            }
            Map<String, Object> requestItems = Map.of(tableName, writes);
            for (int attempt = 0; !requestItems.isEmpty(); attempt++) {
                if (attempt > UNPROCESSED_RETRIES_MAX) {
                    throw new ModelError("the endpoint left sample items unprocessed " + attempt + " times");
                }
                Map<String, Object> answer = client.call("BatchWriteItem", Map.of("RequestItems", requestItems));
                requestItems = ModelReader.object(answer.get("UnprocessedItems"), "UnprocessedItems", false);
                if (requestItems == null) {
                    break;
                }
            }
        }
    }

    private static List<Object> keySchema(KeyAttribute pk, KeyAttribute sk, Map<String, String> definitions) {
        List<Object> schema = new ArrayList<>();
        schema.add(Map.of("AttributeName", pk.name(), "KeyType", "HASH"));
        definitions.put(pk.name(), pk.type());
        if (sk != null) {
            schema.add(Map.of("AttributeName", sk.name(), "KeyType", "RANGE"));
            definitions.put(sk.name(), sk.type());
        }
        return schema;
    }

    private static List<Object> indexes(List<Index> indexes, KeyAttribute tablePk, Map<String, String> definitions) {
        List<Object> out = new ArrayList<>();
        for (Index i : indexes) {
            Map<String, Object> index = new LinkedHashMap<>();
            index.put("IndexName", i.name());
            index.put(
                    "KeySchema",
                    keySchema(i.partitionKey() == null ? tablePk : i.partitionKey(), i.sortKey(), definitions));
            Map<String, Object> projection = new LinkedHashMap<>();
            projection.put("ProjectionType", i.projection());
            if (!i.nonKeyAttributes().isEmpty()) {
                projection.put("NonKeyAttributes", i.nonKeyAttributes());
            }
            index.put("Projection", projection);
            out.add(index);
        }
        return out;
    }

    private static void waitActive(DynamoClient client, String tableName) {
        long deadline = System.currentTimeMillis() + ACTIVE_WAIT_MILLIS_MAX;
        while (true) {
            Map<String, Object> table = ModelReader.object(
                    client.call("DescribeTable", Map.of("TableName", tableName)).get("Table"), "Table", true);
            boolean active = "ACTIVE".equals(table.get("TableStatus"));
            for (Object o : ModelReader.list(table.get("GlobalSecondaryIndexes"), "indexes", false)) {
                active &= "ACTIVE".equals(ModelReader.object(o, "index", true).get("IndexStatus"));
            }
            if (active) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new ModelError("table " + tableName + " did not become ACTIVE in time");
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelError("interrupted while waiting for table " + tableName);
            }
        }
    }
}
