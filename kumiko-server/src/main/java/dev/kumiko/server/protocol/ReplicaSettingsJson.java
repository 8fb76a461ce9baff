package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.replication.ReplicaSettings;
import dev.kumiko.engine.replication.ReplicaStatus;
import dev.kumiko.engine.replication.SettingsChange;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A legacy global table's replica settings as JSON: the API Reference's ReplicaSettingsDescription,
 * which DescribeGlobalTableSettings and UpdateGlobalTableSettings answer, and which a region answers
 * to Kumiko's internal {@code KumikoReplicaSettings} call (so the region asking reads it back); and
 * that call's body, the table's name and the change to make ({@link SettingsChange}).
 *
 * <p>UNVERIFIED: the auto scaling descriptions. Kumiko has no auto scaling; each is written as
 * {@code {"AutoScalingDisabled": true}}, which is how Kumiko reads the API Reference for a table
 * without auto scaling (it quotes no example of one).
 */
public final class ReplicaSettingsJson {
    private ReplicaSettingsJson() {}

    static void write(JsonGenerator g, ReplicaSettings s) throws IOException {
        g.writeStartObject();
        g.writeStringField("RegionName", s.region());
        g.writeStringField("ReplicaStatus", s.status().name());
        g.writeObjectFieldStart("ReplicaBillingModeSummary");
        g.writeStringField("BillingMode", s.billingMode().name());
        if (s.billingMode() == BillingMode.PAY_PER_REQUEST) {
            JsonOut.epochSeconds(g, "LastUpdateToPayPerRequestDateTime", s.lastUpdateToPayPerRequestMillis());
        }
        g.writeEndObject();
        g.writeNumberField("ReplicaProvisionedReadCapacityUnits", s.readCapacityUnits());
        noAutoScaling(g, "ReplicaProvisionedReadCapacityAutoScalingSettings");
        g.writeNumberField("ReplicaProvisionedWriteCapacityUnits", s.writeCapacityUnits());
        noAutoScaling(g, "ReplicaProvisionedWriteCapacityAutoScalingSettings");
        g.writeArrayFieldStart("ReplicaGlobalSecondaryIndexSettings");
        for (ReplicaSettings.IndexSettings x : s.indexes()) {
            g.writeStartObject();
            g.writeStringField("IndexName", x.indexName());
            g.writeStringField("IndexStatus", x.indexStatus());
            g.writeNumberField("ProvisionedReadCapacityUnits", x.readCapacityUnits());
            noAutoScaling(g, "ProvisionedReadCapacityAutoScalingSettings");
            g.writeNumberField("ProvisionedWriteCapacityUnits", x.writeCapacityUnits());
            noAutoScaling(g, "ProvisionedWriteCapacityAutoScalingSettings");
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("ReplicaTableClassSummary");
        g.writeStringField("TableClass", s.tableClass().name());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void noAutoScaling(JsonGenerator g, String field) throws IOException {
        g.writeObjectFieldStart(field);
        g.writeBooleanField("AutoScalingDisabled", true);
        g.writeEndObject();
    }

    /** What a region answered to KumikoReplicaSettings: {@code {"ReplicaSettings": {...}}}. */
    public static ReplicaSettings read(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Map<String, Object> b = JsonTree.parseObject(bytes, 0, bytes.length);
        Map<String, Object> s = Fields.object(b, "ReplicaSettings");
        if (s == null) {
            throw DynamoException.validation("ReplicaSettings is required");
        }
        Map<String, Object> billing = required(Fields.object(s, "ReplicaBillingModeSummary"), "BillingMode");
        List<ReplicaSettings.IndexSettings> indexes = new ArrayList<>();
        List<Map<String, Object>> raw = Fields.objects(s, "ReplicaGlobalSecondaryIndexSettings", m -> m);
        for (Map<String, Object> x : raw == null ? List.<Map<String, Object>>of() : raw) {
            indexes.add(new ReplicaSettings.IndexSettings(
                    text(x, "IndexName"),
                    text(x, "IndexStatus"),
                    units(x, "ProvisionedReadCapacityUnits"),
                    units(x, "ProvisionedWriteCapacityUnits")));
        }
        Map<String, Object> tableClass = required(Fields.object(s, "ReplicaTableClassSummary"), "TableClass");
        return new ReplicaSettings(
                text(s, "RegionName"),
                ReplicaStatus.valueOf(text(s, "ReplicaStatus")),
                BillingMode.valueOf(text(billing, "BillingMode")),
                millis(billing),
                units(s, "ReplicaProvisionedReadCapacityUnits"),
                units(s, "ReplicaProvisionedWriteCapacityUnits"),
                indexes,
                TableClass.valueOf(text(tableClass, "TableClass")));
    }

    /** KumikoReplicaSettings' body: the table, and the change (none: describe only). */
    public static byte[] request(String tableName, @Nullable SettingsChange c) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("TableName", tableName);
            if (c != null) {
                g.writeObjectFieldStart("Change");
                if (c.billingMode() != null) {
                    g.writeStringField("BillingMode", c.billingMode().name());
                }
                if (c.writeCapacityUnits() != null) {
                    g.writeNumberField("WriteCapacityUnits", c.writeCapacityUnits());
                }
                if (c.readCapacityUnits() != null) {
                    g.writeNumberField("ReadCapacityUnits", c.readCapacityUnits());
                }
                unitsMap(g, "IndexWriteCapacityUnits", c.indexWriteCapacityUnits());
                unitsMap(g, "IndexReadCapacityUnits", c.indexReadCapacityUnits());
                if (c.tableClass() != null) {
                    g.writeStringField("TableClass", c.tableClass().name());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The change of a KumikoReplicaSettings body, or null when it asks for none. */
    static @Nullable SettingsChange change(Map<String, Object> b) {
        Map<String, Object> c = Fields.object(b, "Change");
        if (c == null) {
            return null;
        }
        String billing = Fields.string(c, "BillingMode");
        String tableClass = Fields.string(c, "TableClass");
        return new SettingsChange(
                billing == null ? null : WireEnums.lenient(BillingMode.class, billing),
                Fields.longValue(c, "WriteCapacityUnits"),
                Fields.longValue(c, "ReadCapacityUnits"),
                unitsMap(c, "IndexWriteCapacityUnits"),
                unitsMap(c, "IndexReadCapacityUnits"),
                tableClass == null ? null : WireEnums.lenient(TableClass.class, tableClass));
    }

    private static void unitsMap(JsonGenerator g, String field, Map<String, Long> m) throws IOException {
        if (m.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, Long> e : m.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static Map<String, Long> unitsMap(Map<String, Object> c, String field) {
        Map<String, Object> m = Fields.object(c, field);
        Map<String, Long> out = new LinkedHashMap<>();
        if (m != null) {
            for (String k : m.keySet()) {
                out.put(k, units(m, k));
            }
        }
        return out;
    }

    private static Map<String, Object> required(@Nullable Map<String, Object> m, String what) {
        if (m == null) {
            throw DynamoException.validation(what + " is required");
        }
        return m;
    }

    private static String text(Map<String, Object> m, String field) {
        String v = Fields.string(m, field);
        if (v == null) {
            throw DynamoException.validation(field + " is required");
        }
        return v;
    }

    private static long units(Map<String, Object> m, String field) {
        Long v = Fields.longValue(m, field);
        if (v == null || v < 0) {
            throw DynamoException.validation(field + " must be a count of units");
        }
        return v;
    }

    private static long millis(Map<String, Object> billing) {
        if (!(billing.get("LastUpdateToPayPerRequestDateTime") instanceof JsonNumber n)) {
            return 0;
        }
        return new java.math.BigDecimal(n.text()).movePointRight(3).longValue();
    }
}
