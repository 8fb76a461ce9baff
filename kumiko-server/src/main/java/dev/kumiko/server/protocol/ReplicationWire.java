package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.engine.replication.ReplicaStatus;
import dev.kumiko.engine.replication.ReplicatedChange;
import dev.kumiko.engine.replication.Stamp;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON of Kumiko's internal replication calls between regions (ReplicationOperations): a replica
 * set as {@code Replicas: [{RegionName, ReplicaStatus}]}, and a change as {@code {Keys, NewImage,
 * Stamp: {Millis, Region, Sequence}}} with items in DynamoDB JSON. Both sides are Kumiko, so both
 * directions live here.
 */
public final class ReplicationWire {
    private ReplicationWire() {}

    public static byte[] replicateChanges(String tableName, List<ReplicatedChange> changes) {
        return json(g -> {
            g.writeStringField("TableName", tableName);
            g.writeArrayFieldStart("Changes");
            for (ReplicatedChange c : changes) {
                g.writeStartObject();
                g.writeFieldName("Keys");
                JsonOut.item(g, c.keys());
                Map<String, AttributeValue> image = c.newImage();
                if (image != null) {
                    g.writeFieldName("NewImage");
                    JsonOut.item(g, image);
                }
                g.writeObjectFieldStart("Stamp");
                g.writeNumberField("Millis", c.stamp().millis());
                g.writeStringField("Region", c.stamp().region());
                g.writeNumberField("Sequence", c.stamp().sequence());
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    public static byte[] replicaSet(ReplicaSet set) {
        return json(g -> {
            g.writeStringField("TableName", set.tableName());
            replicas(g, set);
        });
    }

    /**
     * KumikoJoinGlobalTable's body: the legacy set and the key schema the joining region's table
     * must have, as {@link dev.kumiko.engine.replication.GlobalTables#keySignature} writes it.
     */
    public static byte[] joinGlobalTable(ReplicaSet set, String keySignature) {
        return json(g -> {
            g.writeStringField("TableName", set.tableName());
            g.writeStringField("KeySignature", keySignature);
            replicas(g, set);
        });
    }

    /** KumikoCreateReplica's body: the new replica's CreateTable request (a JSON tree) and the set. */
    public static byte[] createReplica(ReplicaSet set, Map<String, Object> createTable) {
        return json(g -> {
            g.writeStringField("TableName", set.tableName());
            g.writeFieldName("CreateTable");
            tree(g, createTable);
            replicas(g, set);
        });
    }

    public static byte[] tableName(String tableName) {
        return json(g -> g.writeStringField("TableName", tableName));
    }

    static List<ReplicatedChange> changes(Map<String, Object> b) {
        List<Object> raw = Fields.list(b, "Changes");
        if (raw == null) {
            throw DynamoException.validation("Changes is required");
        }
        List<ReplicatedChange> out = new ArrayList<>(raw.size());
        for (Object o : raw) {
            Map<String, Object> c = Fields.objectValue(o);
            Map<String, AttributeValue> keys = AttributeValues.item(c, "Keys");
            Map<String, Object> stamp = Fields.object(c, "Stamp");
            if (keys == null || keys.isEmpty() || stamp == null) {
                throw DynamoException.validation("A change needs Keys and Stamp");
            }
            Long millis = Fields.longValue(stamp, "Millis");
            Long sequence = Fields.longValue(stamp, "Sequence");
            String region = Fields.string(stamp, "Region");
            if (millis == null
                    || sequence == null
                    || region == null
                    || millis < 0
                    || sequence < 0
                    || region.isEmpty()
                    || region.length() > Stamp.REGION_BYTES_MAX) {
                throw DynamoException.validation("A change's Stamp needs Millis, Region and Sequence");
            }
            out.add(new ReplicatedChange(
                    keys, AttributeValues.item(c, "NewImage"), new Stamp(millis, region, sequence)));
        }
        return out;
    }

    static ReplicaSet replicaSet(Map<String, Object> b) {
        String tableName = Fields.string(b, "TableName");
        List<Object> raw = Fields.list(b, "Replicas");
        if (tableName == null || raw == null || raw.size() > ReplicaSet.REPLICAS_MAX) {
            throw DynamoException.validation("TableName and Replicas are required");
        }
        List<ReplicaSet.Replica> replicas = new ArrayList<>(raw.size());
        for (Object o : raw) {
            Map<String, Object> r = Fields.objectValue(o);
            String region = Fields.string(r, "RegionName");
            String status = Fields.string(r, "ReplicaStatus");
            if (region == null || region.isEmpty() || region.length() > Stamp.REGION_BYTES_MAX || status == null) {
                throw DynamoException.validation("A replica needs RegionName and ReplicaStatus");
            }
            replicas.add(new ReplicaSet.Replica(region, status(status)));
        }
        String version = Fields.string(b, "GlobalTableVersion");
        Long created = Fields.longValue(b, "CreationMillis");
        if (version == null) {
            return new ReplicaSet(tableName, replicas);
        }
        boolean known = version.equals(ReplicaSet.CURRENT) || version.equals(ReplicaSet.LEGACY);
        if (!known || created == null || created < 0) {
            throw DynamoException.validation("Unknown GlobalTableVersion " + version + " or no CreationMillis");
        }
        return new ReplicaSet(tableName, replicas, version, created);
    }

    private static ReplicaStatus status(String s) {
        try {
            return ReplicaStatus.valueOf(s);
        } catch (IllegalArgumentException e) {
            throw DynamoException.validation("Unknown ReplicaStatus " + s);
        }
    }

    private static void replicas(JsonGenerator g, ReplicaSet set) throws IOException {
        g.writeStringField("GlobalTableVersion", set.version());
        g.writeNumberField("CreationMillis", set.createdMillis());
        g.writeArrayFieldStart("Replicas");
        for (ReplicaSet.Replica r : set.replicas()) {
            g.writeStartObject();
            g.writeStringField("RegionName", r.region());
            g.writeStringField("ReplicaStatus", r.status().name());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Writes a parsed JSON tree back (maps, lists, strings, numbers kept as text, booleans, null). */
    static void tree(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                tree(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                tree(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof JsonNumber n) {
            g.writeNumber(n.text());
        } else if (v instanceof Boolean bool) {
            g.writeBoolean(bool);
        } else if (v instanceof JsonNull || v == null) {
            g.writeNull();
        } else {
            g.writeNumber(String.valueOf(v));
        }
    }

    interface Members {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] json(Members members) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            g.writeStartObject();
            members.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
