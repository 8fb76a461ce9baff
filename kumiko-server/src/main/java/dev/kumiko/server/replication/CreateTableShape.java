package dev.kumiko.server.replication;

import dev.kumiko.catalog.AttributeDefinition;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.model.BillingMode;
import dev.kumiko.server.json.JsonNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CreateTable request that makes a replica like its table: keys, attribute definitions,
 * secondary indexes, billing, and the stream with both images (which replication needs in every
 * region). Tags, TTL settings, SSE and deletion protection are not copied, as DynamoDB does not
 * copy them either (each replica's are its own); the table class is.
 */
final class CreateTableShape {
    private CreateTableShape() {}

    static Map<String, Object> of(TableDescriptor d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("TableName", d.tableName());
        List<Object> defs = new ArrayList<>();
        for (AttributeDefinition a : d.attributeDefinitions()) {
            defs.add(Map.of(
                    "AttributeName",
                    a.attributeName(),
                    "AttributeType",
                    a.attributeType().name()));
        }
        m.put("AttributeDefinitions", defs);
        m.put("KeySchema", keySchema(d.keySchema()));
        m.put("BillingMode", d.billingMode().name());
        if (d.billingMode() == BillingMode.PROVISIONED) {
            m.put("ProvisionedThroughput", throughput(d.throughput()));
        }
        if (!d.globalSecondaryIndexes().isEmpty()) {
            m.put("GlobalSecondaryIndexes", indexes(d.globalSecondaryIndexes(), d.billingMode()));
        }
        if (!d.localSecondaryIndexes().isEmpty()) {
            m.put("LocalSecondaryIndexes", indexes(d.localSecondaryIndexes(), BillingMode.PAY_PER_REQUEST));
        }
        m.put("StreamSpecification", Map.of("StreamEnabled", true, "StreamViewType", "NEW_AND_OLD_IMAGES"));
        m.put("TableClass", d.tableClass().name());
        return m;
    }

    private static List<Object> keySchema(List<KeySchemaElement> elements) {
        List<Object> out = new ArrayList<>();
        for (KeySchemaElement k : elements) {
            out.add(Map.of(
                    "AttributeName", k.attributeName(), "KeyType", k.keyType().name()));
        }
        return out;
    }

    private static Map<String, Object> throughput(Throughput t) {
        return Map.of(
                "ReadCapacityUnits", new JsonNumber(Long.toString(t.readCapacityUnits())),
                "WriteCapacityUnits", new JsonNumber(Long.toString(t.writeCapacityUnits())));
    }

    private static List<Object> indexes(List<IndexDescriptor> indexes, BillingMode billing) {
        List<Object> out = new ArrayList<>();
        for (IndexDescriptor x : indexes) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("IndexName", x.indexName());
            m.put("KeySchema", keySchema(x.keySchema()));
            Map<String, Object> projection = new LinkedHashMap<>();
            projection.put("ProjectionType", x.projection().projectionType().name());
            List<String> nonKey = x.projection().nonKeyAttributes();
            if (nonKey != null && !nonKey.isEmpty()) {
                projection.put("NonKeyAttributes", new ArrayList<Object>(nonKey));
            }
            m.put("Projection", projection);
            if (billing == BillingMode.PROVISIONED) {
                m.put("ProvisionedThroughput", throughput(x.throughput()));
            }
            out.add(m);
        }
        return out;
    }
}
